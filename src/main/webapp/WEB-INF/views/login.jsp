<c:set var="pageTitleKey" value="login.title"/>
<%@ include file="_top.jspf" %>
<section class="card narrow">
  <h1><fmt:message key="login.title"/></h1>
  <c:if test="${not empty loginError}"><p class="form-error" role="alert" id="login-error"><fmt:message key="${loginError}"><fmt:param value="${retrySeconds}"/></fmt:message></p></c:if>
  <c:if test="${loggedOut}"><p class="flash" role="status" id="logged-out"><fmt:message key="login.loggedOut"/></p></c:if>
  <c:if test="${ssoEnabled}">
    <p><a class="button primary" id="sso-start" href="${ctx}/admin/sso/start"><fmt:message key="login.sso"/></a></p>
  </c:if>
  <c:choose>
    <c:when test="${localLogin}">
      <%@ include file="_login-form.jspf" %>
    </c:when>
    <c:otherwise>
      <details id="operator-login" ${not empty loginError ? 'open' : ''}>
        <summary><fmt:message key="login.operatorOnly"/></summary>
        <%@ include file="_login-form.jspf" %>
      </details>
    </c:otherwise>
  </c:choose>
</section>
<%@ include file="_bottom.jspf" %>
