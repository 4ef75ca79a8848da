<c:set var="pageTitleKey" value="egress.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="egress.title"/></h1></div>
<p class="note"><fmt:message key="egress.intro"/></p>
<form method="post" action="${ctx}/admin/egress" class="card inline-form" id="egress-form" novalidate>
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <c:if test="${not empty formError}"><p class="field-error" id="egress-form-error" role="alert"><c:out value="${formError}"/></p></c:if>
  <div class="field">
    <label for="rule"><fmt:message key="egress.rule"/></label>
    <input id="rule" name="rule" value="${fn:escapeXml(rule)}" maxlength="300" class="mono" placeholder="*.corp.example">
  </div>
  <div class="field">
    <label for="note"><fmt:message key="egress.note"/></label>
    <input id="note" name="note" value="${fn:escapeXml(note)}" maxlength="500">
  </div>
  <div class="actions"><button type="submit" class="primary" id="egress-add"><fmt:message key="egress.add"/></button></div>
</form>
<c:choose>
  <c:when test="${empty rules}"><p class="empty" id="egress-empty"><fmt:message key="egress.empty"/></p></c:when>
  <c:otherwise>
    <div class="tablewrap">
    <table id="egress-table">
      <thead><tr><th><fmt:message key="egress.rule"/></th><th><fmt:message key="egress.note"/></th><th><fmt:message key="egress.by"/></th><th></th></tr></thead>
      <tbody>
      <c:forEach items="${rules}" var="r">
        <tr data-rule="${fn:escapeXml(r.rule)}">
          <td><code><c:out value="${r.rule}"/></code></td>
          <td><c:out value="${r.note}"/></td>
          <td><c:out value="${r.createdBy}"/></td>
          <td>
            <form method="post" action="${ctx}/admin/egress/${r.id}/delete">
              <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
              <button type="submit" class="danger small" id="egress-delete-${r.id}"><fmt:message key="egress.remove"/></button>
            </form>
          </td>
        </tr>
      </c:forEach>
      </tbody>
    </table>
    </div>
  </c:otherwise>
</c:choose>
<h2><fmt:message key="egress.allowedHosts"/></h2>
<p class="note" id="egress-allowed-hosts">
  <c:choose>
    <c:when test="${empty allowedHosts}"><fmt:message key="egress.allowedHostsNone"/></c:when>
    <c:otherwise><c:forEach items="${allowedHosts}" var="h" varStatus="s"><code><c:out value="${h}"/></code><c:if test="${not s.last}">, </c:if></c:forEach></c:otherwise>
  </c:choose>
</p>
<%@ include file="_bottom.jspf" %>
