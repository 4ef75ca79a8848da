<c:set var="pageTitleKey" value="roles.edit"/>
<%@ include file="_top.jspf" %>
<div class="pagehead">
  <h1><fmt:message key="roles.edit"/>: <span id="role-name"><c:out value="${role.role().name}"/></span></h1>
  <a href="${ctx}/admin/roles"><fmt:message key="common.backToList"/></a>
</div>
<p class="note" id="role-holders"><fmt:message key="roles.heldBy"><fmt:param value="${role.holders()}"/></fmt:message>
  <c:if test="${role.role().builtin}"> <fmt:message key="roles.builtin.help"/></c:if></p>
<form method="post" action="${ctx}/admin/roles/${fn:escapeXml(role.role().name)}" class="card" id="role-form" novalidate>
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <%@ include file="_role-fields.jspf" %>
  <div class="actions"><button type="submit" class="primary" id="save"><fmt:message key="common.save"/></button></div>
</form>
<c:if test="${not role.role().builtin}">
  <form method="post" action="${ctx}/admin/roles/${fn:escapeXml(role.role().name)}/delete" class="card" id="delete-form">
    <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
    <button type="submit" class="danger" id="delete-role"><fmt:message key="roles.delete"/></button>
  </form>
</c:if>
<%@ include file="_bottom.jspf" %>
