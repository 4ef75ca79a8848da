<c:set var="pageTitleKey" value="servers.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead">
  <h1><fmt:message key="servers.title"/></h1>
  <c:if test="${canEdit}"><a class="button primary" id="new-server" href="${ctx}/admin/servers/new"><fmt:message key="servers.new"/></a></c:if>
</div>
<c:if test="${not canEdit}"><p class="note" id="read-only-note"><fmt:message key="common.readOnly"/></p></c:if>
<c:choose>
  <c:when test="${empty servers}"><p class="empty"><fmt:message key="servers.empty"/></p></c:when>
  <c:otherwise>
    <div class="tablewrap">
    <table id="servers-table">
      <thead><tr>
        <th><fmt:message key="servers.name"/></th>
        <th><fmt:message key="servers.slug"/></th>
        <th><fmt:message key="servers.codeMode"/></th>
        <th><fmt:message key="servers.roles"/></th>
        <th class="num"><fmt:message key="servers.tools"/></th>
      </tr></thead>
      <tbody>
      <c:forEach items="${servers}" var="s">
        <tr>
          <td><a href="${ctx}/admin/servers/${s.id}"><c:out value="${s.name}"/></a></td>
          <td><code>/mcp/<c:out value="${s.slug}"/></code></td>
          <td><span class="badge ${s.codeMode.wire()}"><fmt:message key="servers.codeMode.${s.codeMode.wire()}"/></span></td>
          <td><c:out value="${roleNames[s.id]}"/></td>
          <td class="num"><a href="${ctx}/admin/tools?server=${fn:escapeXml(s.slug)}">${toolCounts[s.id]}</a></td>
        </tr>
      </c:forEach>
      </tbody>
    </table>
    </div>
  </c:otherwise>
</c:choose>
<%@ include file="_bottom.jspf" %>
