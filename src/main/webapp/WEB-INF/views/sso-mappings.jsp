<c:set var="pageTitleKey" value="sso.mappings.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="sso.mappings.title"/></h1></div>
<p class="note" id="sso-state">
  <c:choose>
    <c:when test="${ssoEnabled}"><fmt:message key="sso.mappings.on"><fmt:param value="${roleClaim}"/></fmt:message></c:when>
    <c:otherwise><fmt:message key="sso.mappings.off"/></c:otherwise>
  </c:choose>
</p>
<form method="post" action="${ctx}/admin/sso-mappings" class="card inline-form" id="sso-mapping-form" novalidate>
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <div class="field ${empty errors.claimValue ? '' : 'invalid'}">
    <label for="claimValue"><fmt:message key="sso.mappings.value"><fmt:param value="${roleClaim}"/></fmt:message></label>
    <input id="claimValue" name="claimValue" value="${fn:escapeXml(claimValue)}" maxlength="200">
    <c:if test="${not empty errors.claimValue}"><p class="field-error" id="claimValue-error"><c:out value="${errors.claimValue}"/></p></c:if>
  </div>
  <div class="field ${empty errors.role ? '' : 'invalid'}">
    <label for="role"><fmt:message key="sso.mappings.role"/></label>
    <select id="role" name="role">
      <c:forEach items="${roles}" var="r">
        <option value="${fn:escapeXml(r.name)}" ${r.name == mappingRole ? 'selected' : ''}><c:out value="${r.name}"/></option>
      </c:forEach>
    </select>
    <c:if test="${not empty errors.role}"><p class="field-error" id="role-error"><c:out value="${errors.role}"/></p></c:if>
  </div>
  <div class="actions"><button type="submit" class="primary" id="sso-mapping-add"><fmt:message key="sso.mappings.add"/></button></div>
</form>
<c:choose>
  <c:when test="${empty mappings}"><p class="empty" id="sso-mappings-empty"><fmt:message key="sso.mappings.empty"/></p></c:when>
  <c:otherwise>
    <div class="tablewrap">
    <table id="sso-mappings-table">
      <thead><tr>
        <th><fmt:message key="sso.mappings.value"><fmt:param value="${roleClaim}"/></fmt:message></th>
        <th><fmt:message key="sso.mappings.role"/></th>
        <th></th>
      </tr></thead>
      <tbody>
      <c:forEach items="${mappings}" var="m">
        <tr id="sso-mapping-${m.id()}">
          <td><code><c:out value="${m.claimValue()}"/></code></td>
          <td><c:out value="${m.role()}"/></td>
          <td>
            <form method="post" action="${ctx}/admin/sso-mappings/${m.id()}/delete">
              <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
              <button type="submit" class="danger small" id="sso-mapping-delete-${m.id()}"><fmt:message key="sso.mappings.delete"/></button>
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
