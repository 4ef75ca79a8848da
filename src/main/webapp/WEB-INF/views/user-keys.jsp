<c:set var="pageTitleKey" value="userKeys.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead">
  <h1><fmt:message key="userKeys.heading"><fmt:param value="${owner}"/></fmt:message></h1>
  <c:if test="${canEdit}"><a href="${ctx}/admin/users"><fmt:message key="common.backToList"/></a></c:if>
</div>
<p class="note"><fmt:message key="userKeys.help"/></p>
<c:if test="${not empty newKey}">
  <section class="card newkey" role="status">
    <h2><fmt:message key="keys.created"/></h2>
    <p><fmt:message key="keys.shownOnce"/></p>
    <pre id="new-key" class="result ok"><c:out value="${newKey}"/></pre>
  </section>
</c:if>
<form method="post" action="${ctx}/admin/users/${fn:escapeXml(owner)}/keys" class="card inline-form" id="user-key-form" novalidate>
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <div class="field">
    <label for="key-name"><fmt:message key="keys.name"/></label>
    <input id="key-name" name="name" value="${fn:escapeXml(keyName)}" maxlength="200">
  </div>
  <div class="field ${empty errors.expiresAt ? '' : 'invalid'}">
    <label for="key-expires"><fmt:message key="userKeys.expires"/></label>
    <input id="key-expires" name="expiresAt" type="date" value="${fn:escapeXml(keyExpires)}" class="date">
    <c:if test="${not empty errors.expiresAt}"><p class="field-error" id="expiresAt-error"><c:out value="${errors.expiresAt}"/></p></c:if>
  </div>
  <div class="actions"><button type="submit" class="primary" id="mint-key"><fmt:message key="keys.create"/></button></div>
</form>
<c:choose>
  <c:when test="${empty keys}"><p class="empty" id="keys-empty"><fmt:message key="keys.empty"/></p></c:when>
  <c:otherwise>
    <div class="tablewrap">
    <table id="user-keys-table">
      <thead><tr>
        <th><fmt:message key="keys.name"/></th>
        <th><fmt:message key="keys.prefix"/></th>
        <th><fmt:message key="keys.createdAt"/></th>
        <th><fmt:message key="keys.lastUsed"/></th>
        <th><fmt:message key="userKeys.expires"/></th>
        <th><fmt:message key="keys.status"/></th>
        <th></th>
      </tr></thead>
      <tbody>
      <c:forEach items="${keys}" var="k">
        <tr id="key-${k.id}" data-name="${fn:escapeXml(k.name)}">
          <td><c:out value="${k.name}"/></td>
          <td><code><c:out value="${k.keyPrefix}"/></code></td>
          <td><c:out value="${fn:replace(fn:substring(k.createdAt, 0, 16), 'T', ' ')}"/></td>
          <td><c:out value="${empty k.lastUsedAt ? '' : fn:replace(fn:substring(k.lastUsedAt, 0, 16), 'T', ' ')}"/></td>
          <td><c:out value="${empty k.expiresAt ? '' : fn:replace(fn:substring(k.expiresAt, 0, 16), 'T', ' ')}"/></td>
          <td class="status"><c:choose>
            <c:when test="${not empty k.revokedAt}"><span class="badge revoked"><fmt:message key="keys.revoked.badge"/></span></c:when>
            <c:when test="${not k.isUsableAt(now)}"><span class="badge revoked"><fmt:message key="keys.expired"/></span></c:when>
            <c:otherwise><span class="badge active"><fmt:message key="keys.active"/></span></c:otherwise>
          </c:choose></td>
          <td>
            <c:if test="${empty k.revokedAt}">
              <form method="post" action="${ctx}/admin/users/${fn:escapeXml(owner)}/keys/revoke" class="revoke-form">
                <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
                <input type="hidden" name="id" value="${k.id}">
                <button type="submit" class="danger small revoke"><fmt:message key="keys.revoke"/></button>
              </form>
            </c:if>
          </td>
        </tr>
      </c:forEach>
      </tbody>
    </table>
    </div>
  </c:otherwise>
</c:choose>
<%@ include file="_bottom.jspf" %>
