<c:set var="pageTitleKey" value="proposals.review"/>
<%@ include file="_top.jspf" %>
<div class="pagehead">
  <h1><fmt:message key="proposals.review"/> <code><c:out value="${proposal.name}"/></code></h1>
  <a href="${ctx}/admin/proposals"><fmt:message key="common.backToList"/></a>
</div>
<c:if test="${not empty problems}">
  <ul class="warnings" id="proposal-problems"><c:forEach items="${problems}" var="p"><li><strong><c:out value="${p.key}"/></strong>: <c:out value="${p.value}"/></li></c:forEach></ul>
</c:if>
<section class="card">
  <dl class="facts">
    <dt><fmt:message key="tools.server"/></dt><dd><c:out value="${serverSlugs[proposal.serverId]}"/></dd>
    <dt><fmt:message key="tools.toolTitle"/></dt><dd><c:out value="${proposal.title}"/></dd>
    <dt><fmt:message key="common.description"/></dt><dd><c:out value="${proposal.description}"/></dd>
    <dt><fmt:message key="proposals.status"/></dt><dd id="proposal-status"><fmt:message key="proposals.status.${proposal.status}"/></dd>
    <c:if test="${not empty proposal.reviewNote}"><dt><fmt:message key="proposals.note"/></dt><dd><c:out value="${proposal.reviewNote}"/></dd></c:if>
    <dt><fmt:message key="codeTools.uses"/></dt><dd id="proposal-uses"><c:forEach items="${uses}" var="u" varStatus="st"><code><c:out value="${u}"/></code>${st.last ? '' : ', '}</c:forEach></dd>
    <dt><fmt:message key="proposals.literalUses"/></dt><dd><c:forEach items="${literalUses}" var="u" varStatus="st"><code><c:out value="${u}"/></code>${st.last ? '' : ', '}</c:forEach></dd>
    <dt><fmt:message key="codeTools.runAs"/></dt><dd><fmt:message key="proposals.runsAsInvoker"/></dd>
  </dl>
  <c:choose>
    <c:when test="${not empty diff}">
      <h2><fmt:message key="proposals.diff"><fmt:param value="${proposal.name}"/></fmt:message></h2>
      <pre class="result diff" id="proposal-diff"><c:forEach items="${diff}" var="d"><span class="${d.kind}"><c:out value="${d.text}"/></span></c:forEach></pre>
    </c:when>
    <c:otherwise>
      <c:if test="${not empty existing}"><p class="note" id="proposal-clash"><fmt:message key="proposals.clashHttp"><fmt:param value="${proposal.name}"/></fmt:message></p></c:if>
      <h2><fmt:message key="codeTools.code"/></h2>
      <textarea id="proposal-code" rows="12" class="mono" readonly data-editor="javascript" aria-label="<fmt:message key='codeTools.code'/>"><c:out value="${code}"/></textarea>
    </c:otherwise>
  </c:choose>
  <c:if test="${not empty inputSchema}">
    <h2><fmt:message key="tools.inputSchema"/></h2>
    <pre class="result" id="proposal-schema"><c:out value="${inputSchema}"/></pre>
  </c:if>
</section>
<c:if test="${canEdit and proposal.status == 'pending'}">
  <section class="card" id="review-actions">
    <form method="post" action="${ctx}/admin/proposals/${proposal.id}/accept">
      <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
      <p class="help"><fmt:message key="proposals.accept.help"/></p>
      <div class="actions"><button type="submit" class="primary" id="accept"><fmt:message key="proposals.accept"/></button></div>
    </form>
    <form method="post" action="${ctx}/admin/proposals/${proposal.id}/reject">
      <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
      <div class="field">
        <label for="note"><fmt:message key="proposals.note"/></label>
        <input id="note" name="note" maxlength="1000">
      </div>
      <div class="actions"><button type="submit" class="danger" id="reject"><fmt:message key="proposals.reject"/></button></div>
    </form>
  </section>
</c:if>
<%@ include file="_bottom.jspf" %>
