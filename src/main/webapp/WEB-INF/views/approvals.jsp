<c:set var="pageTitleKey" value="approvals.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="approvals.title"/></h1></div>
<p class="help"><fmt:message key="approvals.help"/></p>
<c:if test="${not empty formError}"><p class="error" role="alert" id="form-error"><c:out value="${formError}"/></p></c:if>
<c:choose>
  <c:when test="${empty approvals}"><p class="empty" id="approvals-empty"><fmt:message key="approvals.empty"/></p></c:when>
  <c:otherwise>
    <div class="tablewrap">
    <table id="approvals-table">
      <thead><tr>
        <th><fmt:message key="approvals.tool"/></th>
        <th><fmt:message key="approvals.write"/></th>
        <th><fmt:message key="approvals.requester"/></th>
        <th><fmt:message key="approvals.expires"/></th>
        <th><fmt:message key="approvals.decision"/></th>
      </tr></thead>
      <tbody>
      <c:forEach items="${approvals}" var="a">
        <tr data-id="${fn:escapeXml(a.id)}" class="approval">
          <td><code><c:out value="${a.toolName}"/></code><br><a href="${ctx}/admin/runs/${fn:escapeXml(a.runId)}" class="run-link"><fmt:message key="approvals.run"/></a></td>
          <td>
            <p class="summary"><c:out value="${a.summary}"/></p>
            <p><fmt:message key="approvals.plannedTool"/> <code class="planned-tool"><c:out value="${a.plannedTool}"/></code></p>
            <pre class="planned-args"><c:out value="${plannedArgs[a.id]}"/></pre>
          </td>
          <td><c:out value="${a.requesterName}"/></td>
          <td><c:out value="${fn:replace(fn:substring(a.expiresAt, 0, 19), 'T', ' ')}"/></td>
          <td class="actions">
            <form method="post" action="${ctx}/admin/approvals/${fn:escapeXml(a.id)}/approve">
              <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
              <button type="submit" class="primary approve"><fmt:message key="approvals.approve"/></button>
            </form>
            <form method="post" action="${ctx}/admin/approvals/${fn:escapeXml(a.id)}/refuse">
              <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
              <button type="submit" class="danger refuse"><fmt:message key="approvals.refuse"/></button>
            </form>
          </td>
        </tr>
      </c:forEach>
      </tbody>
    </table>
    </div>
  </c:otherwise>
</c:choose>
<%@ include file="_bottom.jspf" %>
