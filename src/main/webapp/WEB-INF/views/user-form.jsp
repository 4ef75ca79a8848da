<c:set var="pageTitleKey" value="users.edit"/>
<%@ include file="_top.jspf" %>
<div class="pagehead">
  <h1><fmt:message key="users.edit"/>: <span id="user-name"><c:out value="${member.user().username}"/></span></h1>
  <a href="${ctx}/admin/users"><fmt:message key="common.backToList"/></a>
</div>
<p id="user-status"><c:choose>
  <c:when test="${member.user().enabled}"><span class="badge active"><fmt:message key="users.enabled.badge"/></span></c:when>
  <c:otherwise><span class="badge revoked"><fmt:message key="users.disabled.badge"/></span></c:otherwise>
</c:choose>
  <a href="${ctx}/admin/users/${fn:escapeXml(member.user().username)}/keys" id="user-keys"><fmt:message key="users.keys"/></a></p>
<form method="post" action="${ctx}/admin/users/${fn:escapeXml(member.user().username)}" class="card" id="user-form" novalidate>
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <div class="field">
    <label for="role"><fmt:message key="users.role"/></label>
    <select id="role" name="role">
      <c:forEach items="${roles}" var="r"><option value="${fn:escapeXml(r)}" ${r == member.role() ? 'selected' : ''}><c:out value="${r}"/></option></c:forEach>
    </select>
  </div>
  <div class="field">
    <label for="password"><fmt:message key="users.newPassword"/></label>
    <input id="password" name="password" type="password" autocomplete="new-password">
    <p class="help"><fmt:message key="users.newPassword.help"/></p>
  </div>
  <div class="actions"><button type="submit" class="primary" id="save"><fmt:message key="common.save"/></button></div>
</form>
<form method="post" action="${ctx}/admin/users/${fn:escapeXml(member.user().username)}/${member.user().enabled ? 'disable' : 'enable'}" class="card" id="enable-form">
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <p class="help"><fmt:message key="users.disable.help"/></p>
  <button type="submit" id="toggle-enabled" class="${member.user().enabled ? 'danger' : ''}"><fmt:message key="${member.user().enabled ? 'users.disable' : 'users.enable'}"/></button>
</form>
<%@ include file="_bottom.jspf" %>
