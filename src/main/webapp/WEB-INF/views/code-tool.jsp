<c:set var="pageTitleKey" value="${empty form.id ? 'codeTools.create' : 'codeTools.edit'}"/>
<%@ include file="_top.jspf" %>
<div class="pagehead">
  <h1><fmt:message key="${pageTitleKey}"/><c:if test="${not empty form.id}"> <code><c:out value="${tool.name}"/></code></c:if></h1>
  <a href="${ctx}/admin/tools"><fmt:message key="common.backToList"/></a>
</div>
<c:if test="${not canEdit}"><p class="note" id="read-only-note"><fmt:message key="common.readOnly"/></p></c:if>
<c:if test="${not empty drift}">
  <div class="warnings" id="needs-review" role="alert">
    <strong><fmt:message key="codeTools.needsReview"/></strong> <fmt:message key="codeTools.needsReview.help"/>
    <ul>
      <c:forEach items="${drift}" var="d">
        <li><code><c:out value="${d.tool()}"/></code>: <fmt:message key="codeTools.drift.${d.status()}"/><c:forEach items="${d.changes()}" var="change"> · <c:out value="${change}"/></c:forEach></li>
      </c:forEach>
    </ul>
  </div>
</c:if>
<form method="post" action="${ctx}/admin/code-tools/${empty form.id ? 'new' : form.id}" class="card" id="code-tool-form" novalidate>
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <fieldset ${canEdit ? '' : 'disabled'}>
    <div class="grid2">
      <div class="field ${empty errors.server ? '' : 'invalid'}">
        <label for="server"><fmt:message key="tools.server"/></label>
        <select id="server" name="server">
          <option value=""><fmt:message key="tools.chooseServer"/></option>
          <c:forEach items="${servers}" var="s">
            <option value="${fn:escapeXml(s.slug)}" ${s.slug == form.server ? 'selected' : ''}><c:out value="${s.name}"/></option>
          </c:forEach>
        </select>
        <c:set var="f" value="server"/><%@ include file="_field.jspf" %>
      </div>
      <div class="field ${empty errors.name ? '' : 'invalid'}">
        <label for="name"><fmt:message key="tools.name"/></label>
        <input id="name" name="name" value="${fn:escapeXml(form.name)}" maxlength="64" aria-describedby="name-help">
        <p class="help" id="name-help"><fmt:message key="tools.name.help"/></p>
        <c:set var="f" value="name"/><%@ include file="_field.jspf" %>
      </div>
      <div class="field">
        <label for="title"><fmt:message key="tools.toolTitle"/></label>
        <input id="title" name="title" value="${fn:escapeXml(form.title)}" maxlength="200">
      </div>
      <div class="field">
        <label for="description"><fmt:message key="common.description"/></label>
        <textarea id="description" name="description" rows="2" maxlength="4000"><c:out value="${form.description}"/></textarea>
      </div>
    </div>
    <h2><fmt:message key="codeTools.section.code"/></h2>
    <c:choose><c:when test="${showMapping}">
    <div class="field ${empty errors.code ? '' : 'invalid'}">
      <label for="code"><fmt:message key="codeTools.code"/></label>
      <textarea id="code" name="code" rows="14" class="mono" data-editor="javascript" data-completions="${fn:escapeXml(completions)}"
                data-uses="uses" data-analyze="${ctx}/admin/code-tools/analyze" aria-label="<fmt:message key='codeTools.code'/>" aria-describedby="code-help"><c:out value="${form.code}"/></textarea>
      <p class="help" id="code-help"><fmt:message key="codeTools.code.help"/></p>
      <c:set var="f" value="code"/><%@ include file="_field.jspf" %>
    </div>
    <div class="grid2">
      <div class="field ${empty errors.uses ? '' : 'invalid'}">
        <label for="uses"><fmt:message key="codeTools.uses"/></label>
        <select id="uses" name="uses" multiple size="6" aria-describedby="uses-help">
          <c:forEach items="${form.uses}" var="u">
            <c:set var="known" value="false"/>
            <c:forEach items="${callable}" var="t"><c:if test="${t.name == u}"><c:set var="known" value="true"/></c:if></c:forEach>
            <c:if test="${not known}"><option value="${fn:escapeXml(u)}" selected><c:out value="${u}"/></option></c:if>
          </c:forEach>
          <c:forEach items="${callable}" var="t">
            <c:set var="chosen" value="false"/>
            <c:forEach items="${form.uses}" var="u"><c:if test="${t.name == u}"><c:set var="chosen" value="true"/></c:if></c:forEach>
            <option value="${fn:escapeXml(t.name)}" ${chosen ? 'selected' : ''}><c:out value="${t.name}"/> (<fmt:message key="${t.readOnly ? 'tools.read' : 'tools.write'}"/>)</option>
          </c:forEach>
        </select>
        <p class="help" id="uses-help"><fmt:message key="codeTools.uses.help"/></p>
        <c:set var="f" value="uses"/><%@ include file="_field.jspf" %>
      </div>
      <div>
        <fieldset class="field ${empty errors.runAs ? '' : 'invalid'}">
          <legend><fmt:message key="codeTools.runAs"/></legend>
          <label class="choice"><input type="radio" name="runAs" value="invoker" id="runAs-invoker" ${form.runAs == 'definer' ? '' : 'checked'}><fmt:message key="codeTools.runAs.invoker"/></label>
          <label class="choice"><input type="radio" name="runAs" value="definer" id="runAs-definer" ${form.runAs == 'definer' ? 'checked' : ''}><fmt:message key="codeTools.runAs.definer"/></label>
          <p class="help"><fmt:message key="codeTools.runAs.help"/></p>
          <c:set var="f" value="runAs"/><%@ include file="_field.jspf" %>
        </fieldset>
        <div class="field">
          <label class="choice"><input type="checkbox" name="allowWrites" value="true" id="allowWrites"
              ${form.allowWrites ? 'checked' : ''} ${writesLicensed ? '' : 'disabled'} aria-describedby="allowWrites-help"><fmt:message key="codeTools.allowWrites"/></label>
          <p class="help" id="allowWrites-help">
            <c:choose>
              <c:when test="${writesLicensed}"><fmt:message key="codeTools.allowWrites.help"/></c:when>
              <c:otherwise><fmt:message key="codeTools.allowWrites.unlicensed"><fmt:param value="${edition}"/></fmt:message></c:otherwise>
            </c:choose>
          </p>
        </div>
        <div class="field ${empty errors.approval ? '' : 'invalid'}">
          <label for="approval"><fmt:message key="codeTools.approval"/></label>
          <select name="approval" id="approval" aria-describedby="approval-help">
            <c:forEach items="${approvals}" var="a"><option value="${a}" ${form.approval == a ? 'selected' : ''}><fmt:message key="codeTools.approval.${a}"/></option></c:forEach>
          </select>
          <p class="help" id="approval-help"><fmt:message key="codeTools.approval.help"/></p>
          <c:set var="f" value="approval"/><%@ include file="_field.jspf" %>
        </div>
        <div class="field">
          <label class="choice"><input type="checkbox" name="requireReplay" value="true" id="requireReplay"
              ${form.requireReplay ? 'checked' : ''} aria-describedby="requireReplay-help"><fmt:message key="codeTools.requireReplay"/></label>
          <p class="help" id="requireReplay-help"><fmt:message key="codeTools.requireReplay.help"/></p>
        </div>
      </div>
    </div>
    </c:when><c:otherwise><p class="note" id="mapping-hidden"><fmt:message key="codeTools.codeHidden"/></p></c:otherwise></c:choose>
    <h2><fmt:message key="tools.section.schema"/></h2>
    <div class="field ${empty errors.inputSchema ? '' : 'invalid'}">
      <label for="inputSchema"><fmt:message key="tools.inputSchema"/></label>
      <textarea id="inputSchema" name="inputSchema" rows="6" class="mono" data-editor="json" aria-label="<fmt:message key='tools.inputSchema'/>"><c:out value="${form.inputSchema}"/></textarea>
      <c:set var="f" value="inputSchema"/><%@ include file="_field.jspf" %>
    </div>
    <c:if test="${canEdit}">
      <div class="actions"><button type="submit" class="primary" id="save"><fmt:message key="common.save"/></button></div>
    </c:if>
  </fieldset>
</form>

<c:if test="${not empty tool}">
  <section class="card" id="test-panel">
    <h2><fmt:message key="codeTools.test.title"/></h2>
    <p class="help"><fmt:message key="codeTools.test.help"/></p>
    <form method="post" action="${ctx}/admin/code-tools/${tool.id}/test">
      <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
      <div class="field ${empty testErrors.input ? '' : 'invalid'}">
        <label for="input"><fmt:message key="codeTools.test.input"/></label>
        <textarea id="input" name="input" rows="4" class="mono" data-editor="json" aria-label="<fmt:message key='codeTools.test.input'/>"><c:out value="${testInput}"/></textarea>
        <c:if test="${not empty testErrors.input}"><p class="field-error" id="input-error"><c:out value="${testErrors.input}"/></p></c:if>
      </div>
      <div class="actions"><button type="submit" id="test-run"><fmt:message key="codeTools.test.run"/></button>
        <button type="submit" name="dryRun" value="true" id="dry-run"><fmt:message key="codeTools.dryRun"/></button></div>
      <p class="help"><fmt:message key="codeTools.dryRun.help"/></p>
    </form>
    <c:if test="${not empty testResult}">
      <h3><fmt:message key="${testFailed ? 'tools.test.failed' : 'tools.test.ok'}"/>
        <c:if test="${not empty testRun}"><small><span class="badge status-${fn:toLowerCase(testRun.status)}" id="test-status"><c:out value="${testRun.status}"/></span>
          <fmt:message key="tools.test.millis"><fmt:param value="${testRun.wallMs}"/></fmt:message>
          · <a href="${ctx}/admin/runs/${fn:escapeXml(testRun.runId)}" id="test-run-link"><fmt:message key="runs.detail"/></a></small></c:if></h3>
      <pre id="test-result" class="result ${testFailed ? 'error' : 'ok'}"><c:out value="${testResult}"/></pre>
      <c:if test="${testDryRun}">
        <h3><fmt:message key="codeTools.dryRun.planned"/></h3>
        <c:choose><c:when test="${empty plannedWrites}"><p class="note" id="planned-none"><fmt:message key="codeTools.dryRun.none"/></p></c:when>
          <c:otherwise><ol id="planned-writes"><c:forEach items="${plannedWrites}" var="w"><li><code><c:out value="${w.tool}"/></code> <code class="mono"><c:out value="${w.args}"/></code></li></c:forEach></ol></c:otherwise></c:choose>
      </c:if>
      <c:if test="${not empty testRun}">
        <c:set var="run" value="${testRun}"/><c:set var="trace" value="${testTrace}"/>
        <%@ include file="_run-trace.jspf" %>
      </c:if>
    </c:if>
  </section>
  <c:if test="${not empty recordedRuns}">
  <section class="card" id="replay-panel">
    <h2><fmt:message key="codeTools.replay.title"/></h2>
    <p class="help"><fmt:message key="codeTools.replay.help"/></p>
    <form method="post" action="${ctx}/admin/code-tools/${tool.id}/replay">
      <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
      <div class="field">
        <label for="replay-run-id"><fmt:message key="codeTools.replay.run"/></label>
        <select id="replay-run-id" name="runId">
          <c:forEach items="${recordedRuns}" var="r"><option value="${fn:escapeXml(r.runId)}" ${r.runId == replayRunId ? 'selected' : ''}>#<c:out value="${r.id}"/> · <c:out value="${r.status}"/> · <c:out value="${r.startedAt}"/></option></c:forEach>
        </select>
      </div>
      <div class="field">
        <label for="replay-code"><fmt:message key="codeTools.code"/></label>
        <textarea id="replay-code" name="code" rows="10" class="mono" data-editor="javascript" aria-label="<fmt:message key='codeTools.code'/>"><c:out value="${replayCode}"/></textarea>
      </div>
      <div class="actions"><button type="submit" id="replay-try"><fmt:message key="codeTools.replay.try"/></button></div>
    </form>
    <c:if test="${not empty replayError}"><p class="field-error" id="replay-error"><c:out value="${replayError}"/></p></c:if>
    <c:if test="${not empty replay}">
      <h3><span class="badge status-${fn:toLowerCase(replay.status)}" id="replay-status"><c:out value="${replay.status}"/></span>
        <c:if test="${replay.same}"> <small id="replay-same"><fmt:message key="codeTools.replay.same"/></small></c:if></h3>
      <div class="grid2">
        <div><h4><fmt:message key="codeTools.replay.old"/></h4><pre id="replay-old" class="result"><c:out value="${replay.oldValue}"/></pre></div>
        <div><h4><fmt:message key="codeTools.replay.new"/></h4><pre id="replay-new" class="result ${replay.status == 'SUCCESS' ? 'ok' : 'error'}"><c:out value="${replay.newValue}"/></pre></div>
      </div>
      <c:if test="${not empty replay.diverged}">
        <c:set var="d" value="${replay.diverged}"/>
        <p class="field-error" id="replay-diverged"><c:choose>
          <c:when test="${d.reason == 'withheld'}"><fmt:message key="codeTools.replay.withheld"><fmt:param value="${d.callIndex}"/><fmt:param value="${d.tool}"/><fmt:param value="${d.args}"/></fmt:message></c:when>
          <c:when test="${d.reason == 'truncated'}"><fmt:message key="codeTools.replay.truncated"><fmt:param value="${d.callIndex}"/><fmt:param value="${d.tool}"/><fmt:param value="${d.args}"/></fmt:message></c:when>
          <c:otherwise><fmt:message key="codeTools.replay.notRecorded"><fmt:param value="${d.callIndex}"/><fmt:param value="${d.tool}"/><fmt:param value="${d.args}"/></fmt:message></c:otherwise>
        </c:choose></p>
      </c:if>
      <c:if test="${empty replay.diverged and not empty replay.error}"><pre class="result error" id="replay-run-error"><c:out value="${replay.error}"/></pre></c:if>
    </c:if>
  </section>
  </c:if>
  <c:if test="${canEdit}">
    <form method="post" action="${ctx}/admin/tools/${tool.id}/delete" class="danger-zone">
      <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
      <button type="submit" class="danger" id="delete"><fmt:message key="tools.delete"/></button>
    </form>
  </c:if>
</c:if>
<%@ include file="_bottom.jspf" %>
