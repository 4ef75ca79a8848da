<c:set var="pageTitleKey" value="keys.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="keys.title"/></h1></div>
<c:if test="${not canEdit}"><p class="note" id="read-only-note"><fmt:message key="common.readOnly"/></p></c:if>
<c:if test="${not empty newKey}">
  <section class="card newkey" role="status">
    <h2><fmt:message key="keys.created"/></h2>
    <p><fmt:message key="keys.shownOnce"/></p>
    <pre id="new-key" class="result ok"><c:out value="${newKey}"/></pre>
  </section>
</c:if>
<c:if test="${canEdit}">
  <form method="post" action="${ctx}/admin/keys" class="card inline-form" id="key-form" novalidate>
    <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
    <div class="field ${empty errors.name ? '' : 'invalid'}">
      <label for="key-name"><fmt:message key="keys.name"/></label>
      <input id="key-name" name="name" value="${fn:escapeXml(keyName)}" maxlength="200">
      <c:if test="${not empty errors.name}"><p class="field-error" id="name-error"><c:out value="${errors.name}"/></p></c:if>
    </div>
    <div class="field ${empty errors.role ? '' : 'invalid'}">
      <label for="key-role"><fmt:message key="keys.role"/></label>
      <select id="key-role" name="role">
        <option value=""><fmt:message key="keys.ownRole"/></option>
        <c:forEach items="${roles}" var="r">
          <option value="${fn:escapeXml(r.name)}" ${r.name == keyRole ? 'selected' : ''}><c:out value="${r.name}"/></option>
        </c:forEach>
      </select>
      <c:if test="${not empty errors.role}"><p class="field-error" id="role-error"><c:out value="${errors.role}"/></p></c:if>
    </div>
    <div class="actions"><button type="submit" class="primary" id="create-key"><fmt:message key="keys.create"/></button></div>
  </form>
</c:if>
<c:choose>
  <c:when test="${empty keys}"><p class="empty"><fmt:message key="keys.empty"/></p></c:when>
  <c:otherwise>
    <div class="tablewrap">
    <table id="keys-table">
      <thead><tr>
        <th><fmt:message key="keys.name"/></th>
        <th><fmt:message key="keys.prefix"/></th>
        <th><fmt:message key="keys.user"/></th>
        <th><fmt:message key="keys.role"/></th>
        <th><fmt:message key="keys.createdAt"/></th>
        <th><fmt:message key="keys.lastUsed"/></th>
        <th><fmt:message key="keys.status"/></th>
        <c:if test="${canEdit}"><th></th></c:if>
      </tr></thead>
      <tbody>
      <c:forEach items="${keys}" var="k">
        <tr id="key-${k.id}" data-name="${fn:escapeXml(k.name)}">
          <td><c:out value="${k.name}"/></td>
          <td><code><c:out value="${k.keyPrefix}"/></code></td>
          <td><c:out value="${usernames[k.userId]}"/></td>
          <td><c:choose><c:when test="${empty k.roleId}"><fmt:message key="keys.ownRole"/></c:when><c:otherwise><c:out value="${roleNames[k.roleId]}"/></c:otherwise></c:choose></td>
          <td><c:out value="${fn:replace(fn:substring(k.createdAt, 0, 16), 'T', ' ')}"/></td>
          <td><c:out value="${empty k.lastUsedAt ? '' : fn:replace(fn:substring(k.lastUsedAt, 0, 16), 'T', ' ')}"/></td>
          <td class="status"><c:choose>
            <c:when test="${not empty k.revokedAt}"><span class="badge revoked"><fmt:message key="keys.revoked.badge"/></span></c:when>
            <c:when test="${not k.isUsableAt(now)}"><span class="badge revoked"><fmt:message key="keys.expired"/></span></c:when>
            <c:otherwise><span class="badge active"><fmt:message key="keys.active"/></span></c:otherwise>
          </c:choose></td>
          <c:if test="${canEdit}"><td>
            <c:if test="${empty k.revokedAt}">
              <form method="post" action="${ctx}/admin/keys/${k.id}/revoke">
                <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
                <button type="submit" class="danger small revoke"><fmt:message key="keys.revoke"/></button>
              </form>
            </c:if>
          </td></c:if>
        </tr>
      </c:forEach>
      </tbody>
    </table>
    </div>
  </c:otherwise>
</c:choose>
<%@ include file="_bottom.jspf" %>
