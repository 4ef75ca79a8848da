<c:set var="pageTitleKey" value="${empty form.id ? 'tools.create' : 'tools.edit'}"/>
<%@ include file="_top.jspf" %>
<div class="pagehead">
  <h1><fmt:message key="${pageTitleKey}"/><c:if test="${not empty form.id}"> <code><c:out value="${tool.name}"/></code></c:if></h1>
  <a href="${ctx}/admin/tools"><fmt:message key="common.backToList"/></a>
</div>
<c:if test="${not canEdit}"><p class="note" id="read-only-note"><fmt:message key="common.readOnly"/></p></c:if>
<form method="post" action="${ctx}/admin/tools/${empty form.id ? 'new' : form.id}" class="card" id="tool-form" novalidate>
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
    <h2><fmt:message key="tools.section.request"/></h2>
    <c:choose><c:when test="${showMapping}">
    <div class="grid-method">
      <div class="field">
        <label for="method"><fmt:message key="tools.method"/></label>
        <select id="method" name="method">
          <c:forEach items="${methods}" var="m"><option value="${m}" ${m == form.method ? 'selected' : ''}>${m}</option></c:forEach>
        </select>
      </div>
      <c:if test="${not empty apis or not empty form.upstream}">
      <div class="field">
        <label for="upstream"><fmt:message key="tools.upstream"/></label>
        <select id="upstream" name="upstream">
          <option value=""><fmt:message key="tools.upstream.none"/></option>
          <c:forEach items="${apis}" var="a"><option value="${fn:escapeXml(a)}" ${a == form.upstream ? 'selected' : ''}><c:out value="${a}"/></option></c:forEach>
        </select>
        <p class="help"><fmt:message key="tools.upstream.help"/></p>
      </div>
      </c:if>
      <div class="field ${empty errors.url ? '' : 'invalid'}">
        <label for="url"><fmt:message key="tools.url"/></label>
        <fmt:message key="tools.url.placeholder" var="urlPlaceholder"/>
        <input id="url" name="url" value="${fn:escapeXml(form.url)}" class="mono" placeholder="${fn:escapeXml(urlPlaceholder)}" aria-describedby="url-help">
        <p class="help" id="url-help"><fmt:message key="tools.url.help"/></p>
        <c:set var="f" value="url"/><%@ include file="_field.jspf" %>
      </div>
    </div>
    <div class="grid2">
      <div class="field ${empty errors.query ? '' : 'invalid'}">
        <label for="query"><fmt:message key="tools.query"/></label>
        <textarea id="query" name="query" rows="3" class="mono" placeholder="status=status"><c:out value="${form.query}"/></textarea>
        <p class="help"><fmt:message key="tools.query.help"/></p>
        <c:set var="f" value="query"/><%@ include file="_field.jspf" %>
      </div>
      <div class="field ${empty errors.headers ? '' : 'invalid'}">
        <label for="headers"><fmt:message key="tools.headers"/></label>
        <textarea id="headers" name="headers" rows="3" class="mono" placeholder="Accept: application/json"><c:out value="${form.headers}"/></textarea>
        <p class="help"><fmt:message key="tools.headers.help"/></p>
        <c:set var="f" value="headers"/><%@ include file="_field.jspf" %>
      </div>
      <div class="field ${empty errors.body ? '' : 'invalid'}">
        <label for="body"><fmt:message key="tools.body"/></label>
        <input id="body" name="body" value="${fn:escapeXml(form.body)}" class="mono">
        <p class="help"><fmt:message key="tools.body.help"/></p>
        <c:set var="f" value="body"/><%@ include file="_field.jspf" %>
      </div>
      <div class="grid2 tight">
        <div class="field">
          <label for="credential"><fmt:message key="tools.credential"/></label>
          <input id="credential" name="credential" value="${fn:escapeXml(form.credential)}" class="mono">
        </div>
        <div class="field ${empty errors.timeoutMs ? '' : 'invalid'}">
          <label for="timeoutMs"><fmt:message key="tools.timeoutMs"/></label>
          <input id="timeoutMs" name="timeoutMs" value="${fn:escapeXml(form.timeoutMs)}" inputmode="numeric">
          <c:set var="f" value="timeoutMs"/><%@ include file="_field.jspf" %>
        </div>
      </div>
    </div>
    </c:when><c:otherwise><p class="note" id="mapping-hidden"><fmt:message key="tools.mappingHidden"/></p></c:otherwise></c:choose>
    <h2><fmt:message key="tools.section.schema"/></h2>
    <div class="field ${empty errors.inputSchema ? '' : 'invalid'}">
      <label for="inputSchema"><fmt:message key="tools.inputSchema"/></label>
      <textarea id="inputSchema" name="inputSchema" rows="8" class="mono" data-editor="json" aria-label="<fmt:message key='tools.inputSchema'/>"><c:out value="${form.inputSchema}"/></textarea>
      <c:set var="f" value="inputSchema"/><%@ include file="_field.jspf" %>
    </div>
    <div class="field ${empty errors.outputSchema ? '' : 'invalid'}">
      <label for="outputSchema"><fmt:message key="tools.outputSchema"/></label>
      <textarea id="outputSchema" name="outputSchema" rows="3" class="mono" data-editor="json" aria-label="<fmt:message key='tools.outputSchema'/>"><c:out value="${form.outputSchema}"/></textarea>
      <c:set var="f" value="outputSchema"/><%@ include file="_field.jspf" %>
    </div>
    <c:if test="${canEdit}">
      <div class="actions"><button type="submit" class="primary" id="save"><fmt:message key="common.save"/></button></div>
    </c:if>
  </fieldset>
</form>

<c:if test="${not empty tool}">
  <section class="card" id="test-panel">
    <h2><fmt:message key="tools.test.title"/></h2>
    <p class="help"><fmt:message key="tools.test.help"/></p>
    <form method="post" action="${ctx}/admin/tools/${tool.id}/test">
      <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
      <div class="field ${empty testErrors.args ? '' : 'invalid'}">
        <label for="args"><fmt:message key="tools.test.args"/></label>
        <textarea id="args" name="args" rows="4" class="mono" data-editor="json" aria-label="<fmt:message key='tools.test.args'/>"><c:out value="${testArgs}"/></textarea>
        <c:if test="${not empty testErrors.args}"><p class="field-error" id="args-error"><c:out value="${testErrors.args}"/></p></c:if>
      </div>
      <div class="actions"><button type="submit" id="test"><fmt:message key="tools.test.run"/></button></div>
    </form>
    <c:if test="${not empty testResult}">
      <h3><fmt:message key="${testFailed ? 'tools.test.failed' : 'tools.test.ok'}"/>
        <small><fmt:message key="tools.test.millis"><fmt:param value="${testMillis}"/></fmt:message></small></h3>
      <pre id="test-result" class="result ${testFailed ? 'error' : 'ok'}"><c:out value="${testResult}"/></pre>
    </c:if>
    <c:if test="${canEdit and not empty inferredSchema}">
      <form method="post" action="${ctx}/admin/tools/${tool.id}/output-schema" id="infer-form">
        <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
        <h3><fmt:message key="tools.infer.title"/></h3>
        <p class="help"><fmt:message key="tools.infer.help"/></p>
        <div class="field ${empty inferErrors.inferredSchema ? '' : 'invalid'}">
          <textarea id="inferredSchema" name="outputSchema" rows="10" class="mono" aria-label="<fmt:message key='tools.infer.title'/>"><c:out value="${inferredSchema}"/></textarea>
          <c:if test="${not empty inferErrors.inferredSchema}"><p class="field-error" id="inferredSchema-error"><c:out value="${inferErrors.inferredSchema}"/></p></c:if>
        </div>
        <div class="actions"><button type="submit" id="accept-schema"><fmt:message key="tools.infer.accept"/></button></div>
      </form>
    </c:if>
  </section>
  <c:if test="${canEdit}">
    <form method="post" action="${ctx}/admin/tools/${tool.id}/delete" class="danger-zone">
      <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
      <button type="submit" class="danger" id="delete"><fmt:message key="tools.delete"/></button>
    </form>
  </c:if>
</c:if>
<%@ include file="_bottom.jspf" %>
