<c:set var="pageTitleKey" value="apis.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="apis.title"/></h1></div>
<p class="note"><fmt:message key="apis.intro"/></p>
<form method="post" action="${ctx}/admin/apis" class="card inline-form" id="api-form" novalidate>
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <c:if test="${not empty formError}"><p class="field-error" id="api-form-error" role="alert"><c:out value="${formError}"/></p></c:if>
  <div class="field">
    <label for="name"><fmt:message key="apis.name"/></label>
    <input id="name" name="name" value="${fn:escapeXml(form.name)}" maxlength="64" class="mono" placeholder="shop">
  </div>
  <div class="field">
    <label for="baseUrl"><fmt:message key="apis.baseUrl"/></label>
    <input id="baseUrl" name="baseUrl" value="${fn:escapeXml(form.baseUrl)}" maxlength="2000" class="mono" placeholder="https://shop.internal.example/api">
  </div>
  <div class="field">
    <label for="description"><fmt:message key="apis.description"/></label>
    <input id="description" name="description" value="${fn:escapeXml(form.description)}" maxlength="1000">
  </div>
  <div class="actions"><button type="submit" class="primary" id="api-add"><fmt:message key="apis.add"/></button></div>
</form>
<c:choose>
  <c:when test="${empty apis}"><p class="empty" id="apis-empty"><fmt:message key="apis.empty"/></p></c:when>
  <c:otherwise>
    <c:forEach items="${apis}" var="a">
      <section class="card" id="api-${a.id()}" data-api="${fn:escapeXml(a.name())}">
        <h2><code><c:out value="${a.name()}"/></code></h2>
        <p><code class="api-base"><c:out value="${a.baseUrl()}"/></code><c:if test="${not empty a.description()}"> &middot; <c:out value="${a.description()}"/></c:if></p>
        <c:if test="${not empty rowErrors[a.id()]}"><p class="field-error" id="api-${a.id()}-error" role="alert"><c:out value="${rowErrors[a.id()]}"/></p></c:if>
        <p class="api-credential" id="api-${a.id()}-credential">
          <c:choose>
            <c:when test="${empty a.credential()}"><fmt:message key="apis.noCredential"/></c:when>
            <c:otherwise>
              <fmt:message key="apis.credential">
                <fmt:param value="${a.credential().getString('kind')}"/>
                <fmt:param value="${a.credential().getString('fingerprint')}"/>
                <fmt:param value="${a.credential().getString('setBy')}"/>
                <fmt:param value="${a.credential().getString('setAt')}"/>
              </fmt:message>
            </c:otherwise>
          </c:choose>
        </p>
        <details ${empty a.credential() ? 'open' : ''}>
          <summary><fmt:message key="${empty a.credential() ? 'apis.setCredential' : 'apis.replaceCredential'}"/></summary>
          <form method="post" action="${ctx}/admin/apis/${a.id()}/credential" class="credential-form" autocomplete="off" novalidate>
            <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
            <div class="field">
              <label for="kind-${a.id()}"><fmt:message key="apis.kind"/></label>
              <select id="kind-${a.id()}" name="kind">
                <c:forEach items="${kinds}" var="k"><option value="${k}">${k}</option></c:forEach>
              </select>
            </div>
            <div class="grid2 tight">
              <div class="field"><label for="header-${a.id()}"><fmt:message key="apis.header"/></label>
                <input id="header-${a.id()}" name="header-header" class="mono" placeholder="Authorization"></div>
              <div class="field"><label for="username-${a.id()}"><fmt:message key="apis.username"/></label>
                <input id="username-${a.id()}" name="basic-username"></div>
              <div class="field"><label for="tokenUrl-${a.id()}"><fmt:message key="apis.tokenUrl"/></label>
                <input id="tokenUrl-${a.id()}" name="oauth_client-tokenUrl" class="mono"></div>
              <div class="field"><label for="clientId-${a.id()}"><fmt:message key="apis.clientId"/></label>
                <input id="clientId-${a.id()}" name="oauth_client-clientId"></div>
              <div class="field"><label for="scope-${a.id()}"><fmt:message key="apis.scope"/></label>
                <input id="scope-${a.id()}" name="oauth_client-scope"></div>
              <div class="field"><label for="secret-${a.id()}"><fmt:message key="apis.secret"/></label>
                <input id="secret-${a.id()}" name="secret" type="password" autocomplete="new-password"></div>
            </div>
            <p class="help"><fmt:message key="apis.secretHelp"/></p>
            <div class="actions"><button type="submit" class="primary small" id="api-${a.id()}-set-credential"><fmt:message key="apis.saveCredential"/></button></div>
          </form>
        </details>
        <div class="actions">
          <c:if test="${not empty a.credential()}">
            <form method="post" action="${ctx}/admin/apis/${a.id()}/credential/delete">
              <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
              <button type="submit" class="small" id="api-${a.id()}-remove-credential"><fmt:message key="apis.removeCredential"/></button>
            </form>
          </c:if>
          <form method="post" action="${ctx}/admin/apis/${a.id()}/delete">
            <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
            <button type="submit" class="danger small" id="api-${a.id()}-delete"><fmt:message key="apis.delete"/></button>
          </form>
        </div>
      </section>
    </c:forEach>
  </c:otherwise>
</c:choose>
<c:if test="${not empty operatorApis}">
  <h2><fmt:message key="apis.operator"/></h2>
  <div class="tablewrap">
  <table id="operator-apis">
    <thead><tr><th><fmt:message key="apis.setting"/></th><th><fmt:message key="apis.baseUrl"/></th></tr></thead>
    <tbody>
    <c:forEach items="${operatorApis}" var="o">
      <tr><td><code>&#36;{<c:out value="${o.key}"/>}</code></td><td><code><c:out value="${o.value}"/></code></td></tr>
    </c:forEach>
    </tbody>
  </table>
  </div>
</c:if>
<%@ include file="_bottom.jspf" %>
