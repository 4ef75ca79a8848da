<c:set var="pageTitleKey" value="users.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="users.title"/></h1></div>
<div class="tablewrap">
<table id="users-table">
  <thead><tr>
    <th><fmt:message key="users.username"/></th>
    <th><fmt:message key="users.displayName"/></th>
    <th><fmt:message key="users.email"/></th>
    <th><fmt:message key="users.role"/></th>
    <th><fmt:message key="keys.status"/></th>
    <th></th>
  </tr></thead>
  <tbody>
  <c:forEach items="${users}" var="m">
    <tr data-user="${fn:escapeXml(m.user().username)}">
      <td><a href="${ctx}/admin/users/${fn:escapeXml(m.user().username)}" class="user-link"><c:out value="${m.user().username}"/></a></td>
      <td><c:out value="${m.user().displayName}"/></td>
      <td><c:out value="${m.user().email}"/></td>
      <td class="role"><c:out value="${m.role()}"/></td>
      <td class="status"><c:choose>
        <c:when test="${m.user().enabled}"><span class="badge active"><fmt:message key="users.enabled.badge"/></span></c:when>
        <c:otherwise><span class="badge revoked"><fmt:message key="users.disabled.badge"/></span></c:otherwise>
      </c:choose></td>
      <td class="actions-cell">
        <a href="${ctx}/admin/users/${fn:escapeXml(m.user().username)}/keys" class="keys-link"><fmt:message key="users.keys"/></a>
        <form method="post" action="${ctx}/admin/users/${fn:escapeXml(m.user().username)}/${m.user().enabled ? 'disable' : 'enable'}" class="inline">
          <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
          <button type="submit" class="small ${m.user().enabled ? 'danger disable' : 'enable'}"><fmt:message key="${m.user().enabled ? 'users.disable' : 'users.enable'}"/></button>
        </form>
      </td>
    </tr>
  </c:forEach>
  </tbody>
</table>
</div>
<h2><fmt:message key="users.add"/></h2>
<form method="post" action="${ctx}/admin/users" class="card" id="user-form" novalidate>
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <div class="field">
    <label for="username"><fmt:message key="users.username"/></label>
    <input id="username" name="username" value="${fn:escapeXml(typed.username())}" maxlength="100" autocomplete="off">
    <p class="help"><fmt:message key="users.username.help"/></p>
  </div>
  <div class="field">
    <label for="displayName"><fmt:message key="users.displayName"/></label>
    <input id="displayName" name="displayName" value="${fn:escapeXml(typed.displayName())}" maxlength="200">
  </div>
  <div class="field">
    <label for="email"><fmt:message key="users.email"/></label>
    <input id="email" name="email" type="email" value="${fn:escapeXml(typed.email())}" maxlength="320">
  </div>
  <div class="field">
    <label for="role"><fmt:message key="users.role"/></label>
    <select id="role" name="role">
      <c:forEach items="${roles}" var="r"><option value="${fn:escapeXml(r)}" ${r == typedRole ? 'selected' : ''}><c:out value="${r}"/></option></c:forEach>
    </select>
  </div>
  <div class="field">
    <label for="password"><fmt:message key="users.password"/></label>
    <input id="password" name="password" type="password" autocomplete="new-password">
    <p class="help"><fmt:message key="users.password.help"/></p>
  </div>
  <div class="actions"><button type="submit" class="primary" id="add-user"><fmt:message key="users.add"/></button></div>
</form>
<%@ include file="_bottom.jspf" %>
