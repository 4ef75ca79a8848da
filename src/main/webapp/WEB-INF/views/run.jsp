<c:set var="pageTitleKey" value="runs.detailTitle"/>
<%@ include file="_top.jspf" %>
<div class="pagehead">
  <h1><fmt:message key="runs.detailTitle"/> <code><c:out value="${fn:substring(run.runId, 0, 8)}"/></code></h1>
  <a href="${ctx}/admin/runs"><fmt:message key="common.backToList"/></a>
</div>
<section class="card">
  <dl class="facts" id="run-facts">
    <dt><fmt:message key="runs.status"/></dt><dd><span class="badge status-${fn:toLowerCase(run.status)}" id="run-status"><c:out value="${run.status}"/></span><c:if test="${run.kind != 'live'}"> <span class="badge run-kind" id="run-kind"><fmt:message key="runs.kind.${run.kind == 'dry_run' ? 'dryRun' : run.kind}"/></span></c:if></dd>
    <c:if test="${not empty run.approvalId}"><dt><fmt:message key="runs.approval"/></dt><dd id="run-approval"><span class="badge"><c:out value="${run.approval}"/></span><c:if test="${not empty run.approvalBy}"> <fmt:message key="runs.approval.by"><fmt:param value="${run.approvalBy}"/><fmt:param value="${fn:replace(fn:substring(run.approvalAt, 0, 19), 'T', ' ')}"/></fmt:message></c:if></dd></c:if>
    <dt><fmt:message key="runs.tool"/></dt><dd><c:choose><c:when test="${run.inlineRun}">code_execute</c:when><c:otherwise><c:out value="${run.toolName}"/></c:otherwise></c:choose></dd>
    <dt><fmt:message key="runs.user"/></dt><dd><c:out value="${usernames[run.invokerUserId]}"/></dd>
    <dt><fmt:message key="runs.runAs"/></dt><dd><c:out value="${run.runAsMode}"/> · <c:out value="${run.runAsRole}"/></dd>
    <dt><fmt:message key="runs.started"/></dt><dd><c:out value="${run.startedAt}"/></dd>
    <dt><fmt:message key="runs.wallMs"/></dt><dd><c:out value="${run.wallMs}"/></dd>
    <dt><fmt:message key="runs.bytes"/></dt><dd><fmt:message key="runs.bytes.value"><fmt:param value="${run.inputBytes}"/><fmt:param value="${run.outputBytes}"/><fmt:param value="${run.consoleBytes}"/></fmt:message></dd>
    <dt><fmt:message key="runs.codeSha256"/></dt><dd><code><c:out value="${run.codeSha256}"/></code></dd>
    <dt><fmt:message key="runs.runId"/></dt><dd><code><c:out value="${run.runId}"/></code></dd>
  </dl>
  <c:if test="${not empty run.error}"><h3><fmt:message key="runs.error"/></h3><pre class="result error" id="run-error"><c:out value="${run.error}"/></pre></c:if>
  <%@ include file="_run-trace.jspf" %>
</section>
<%@ include file="_bottom.jspf" %>
