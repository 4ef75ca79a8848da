<c:set var="pageTitleKey" value="error.title"/>
<%@ include file="_top.jspf" %>
<section class="card narrow">
  <h1><fmt:message key="error.title"/></h1>
  <p class="form-error" role="alert" id="error-message"><c:out value="${errorMessage}"/></p>
  <p><a href="${ctx}/admin/servers"><fmt:message key="error.back"/></a></p>
</section>
<%@ include file="_bottom.jspf" %>
