<c:set var="pageTitleKey" value="imports.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="imports.title"/></h1><a href="${ctx}/admin/tools"><fmt:message key="imports.toTools"/></a></div>
<ol class="steps" id="import-steps"><li><fmt:message key="imports.step.source"/></li><li><fmt:message key="imports.step.review"/></li><li class="current"><fmt:message key="imports.step.done"/></li></ol>
<c:choose>
  <c:when test="${not empty problems}">
    <section class="card" role="alert" id="import-problems">
      <h2><fmt:message key="imports.failed"/></h2>
      <ul><c:forEach items="${problems}" var="p"><li><code><c:out value="${p.key}"/></code>: <c:out value="${p.value}"/></li></c:forEach></ul>
      <p><a href="${ctx}/admin/imports"><fmt:message key="imports.again"/></a></p>
    </section>
  </c:when>
  <c:otherwise>
    <section class="card" role="status" id="import-result">
      <c:forEach items="${['created', 'updated', 'removed', 'skipped']}" var="k">
        <h2><fmt:message key="imports.result.${k}"/> (${fn:length(applied[k])})</h2>
        <p id="result-${k}"><c:forEach items="${applied[k]}" var="n" varStatus="s"><code><c:out value="${n}"/></code><c:if test="${not s.last}">, </c:if></c:forEach></p>
      </c:forEach>
    </section>
  </c:otherwise>
</c:choose>
<%@ include file="_bottom.jspf" %>
