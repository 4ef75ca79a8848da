<c:set var="pageTitleKey" value="sso.refused.title"/>
<%@ include file="_top.jspf" %>
<section class="card narrow">
  <h1><fmt:message key="sso.refused.title"/></h1>
  <p class="form-error" role="alert" id="sso-refusal"><c:out value="${refusal}"/></p>
  <p><a href="${ctx}/admin/login" id="sso-back"><fmt:message key="sso.refused.back"/></a></p>
</section>
<%@ include file="_bottom.jspf" %>
