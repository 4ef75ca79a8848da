<c:set var="pageTitleKey" value="login.title"/>
<%@ include file="_top.jspf" %>
<section class="card narrow">
  <h1><fmt:message key="login.title"/></h1>
  <c:if test="${not empty loginError}"><p class="form-error" role="alert" id="login-error"><fmt:message key="${loginError}"/></p></c:if>
  <c:if test="${loggedOut}"><p class="flash" role="status" id="logged-out"><fmt:message key="login.loggedOut"/></p></c:if>
  <form method="post" action="${ctx}/admin/j_security_check" class="stack" id="login-form">
    <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
    <label for="j_username"><fmt:message key="login.username"/></label>
    <input id="j_username" name="j_username" autocomplete="username" required autofocus>
    <label for="j_password"><fmt:message key="login.password"/></label>
    <input id="j_password" name="j_password" type="password" autocomplete="current-password" required>
    <button type="submit" class="primary" id="login-submit"><fmt:message key="login.submit"/></button>
  </form>
</section>
<%@ include file="_bottom.jspf" %>
