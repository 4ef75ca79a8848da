<c:set var="pageTitleKey" value="license.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="license.title"/></h1></div>
<c:if test="${not empty usage.warnings}">
  <ul class="warnings" id="license-warnings"><c:forEach items="${usage.warnings}" var="w"><li><c:out value="${w}"/></li></c:forEach></ul>
</c:if>
<section class="card">
  <dl class="facts" id="license-facts">
    <dt><fmt:message key="license.edition"/></dt><dd><span class="badge" id="license-edition"><c:out value="${usage.edition}"/></span></dd>
    <dt><fmt:message key="license.licensee"/></dt><dd id="license-licensee"><c:out value="${usage.licensee}"/></dd>
    <dt><fmt:message key="license.expires"/></dt><dd><c:choose><c:when test="${empty usage.expiresAt}"><fmt:message key="license.never"/></c:when><c:otherwise><c:out value="${usage.expiresAt}"/></c:otherwise></c:choose></dd>
    <dt><fmt:message key="license.writes"/></dt><dd id="license-writes"><fmt:message key="${usage.allowsWrites ? 'license.writes.yes' : 'license.writes.no'}"/></dd>
  </dl>
  <c:if test="${not manageLicense}">
  <h2><fmt:message key="license.usage"/></h2>
  <div class="field" id="usage-tools">
    <strong><fmt:message key="license.maxCodeTools"/></strong>
    <progress class="meter ${usage.codeTools >= usage.maxCodeTools ? 'full' : ''}" max="${usage.maxCodeTools}" value="${usage.codeTools}"></progress>
    <p class="help" id="usage-tools-text"><fmt:message key="license.usage.tools"><fmt:param value="${usage.codeTools}"/><fmt:param value="${usage.maxCodeTools}"/></fmt:message>
      <fmt:message key="${usage.paid ? 'license.soft' : 'license.hard'}"/></p>
  </div>
  <div class="field" id="usage-runs">
    <strong><fmt:message key="license.monthlyCodeRuns"/></strong>
    <progress class="meter ${usage.runsThisMonth >= usage.monthlyCodeRuns ? 'full' : ''}" max="${usage.monthlyCodeRuns}" value="${usage.runsThisMonth}"></progress>
    <p class="help" id="usage-runs-text"><fmt:message key="license.usage.runs"><fmt:param value="${usage.runsThisMonth}"/><fmt:param value="${usage.monthlyCodeRuns}"/></fmt:message></p>
  </div>
  </c:if>
</section>
<c:if test="${not manageLicense}"><p class="note" id="license-operator-note"><fmt:message key="license.operatorOnly"/></p></c:if>
<c:if test="${manageLicense}">
  <section class="card" id="license-install">
    <h2><fmt:message key="license.install"/></h2>
    <form method="post" action="${ctx}/admin/license/install" id="license-form">
      <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
      <div class="field">
        <label for="document"><fmt:message key="license.document"/></label>
        <textarea id="document" name="document" rows="5" class="mono" aria-describedby="document-help"><c:out value="${document}"/></textarea>
        <p class="help" id="document-help"><fmt:message key="license.document.help"/></p>
      </div>
      <div class="actions"><button type="submit" class="primary" id="install-license"><fmt:message key="license.install.submit"/></button></div>
    </form>
    <c:if test="${usage.edition != 'community'}">
      <form method="post" action="${ctx}/admin/license/remove" class="danger-zone">
        <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
        <p class="help"><fmt:message key="license.remove.help"/></p>
        <button type="submit" class="danger" id="remove-license"><fmt:message key="license.remove"/></button>
      </form>
    </c:if>
  </section>
</c:if>
<%@ include file="_bottom.jspf" %>
