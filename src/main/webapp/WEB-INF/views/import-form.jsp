<c:set var="pageTitleKey" value="imports.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="imports.title"/></h1></div>
<ol class="steps" id="import-steps"><li class="current"><fmt:message key="imports.step.source"/></li><li><fmt:message key="imports.step.review"/></li><li><fmt:message key="imports.step.done"/></li></ol>
<c:if test="${not canEdit}"><p class="note" id="read-only-note"><fmt:message key="common.readOnly"/></p></c:if>
<form method="post" action="${ctx}/admin/imports" class="card" id="import-form" novalidate data-max-bytes="${maxBytes}">
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <fieldset ${canEdit ? '' : 'disabled'}>
    <div class="field">
      <label for="server"><fmt:message key="imports.server"/></label>
      <select id="server" name="server">
        <c:forEach items="${servers}" var="s">
          <option value="${fn:escapeXml(s.slug)}" ${s.slug == form.server ? 'selected' : ''}><c:out value="${s.name}"/> (<c:out value="${s.slug}"/>)</option>
        </c:forEach>
      </select>
    </div>
    <div class="field">
      <label for="url"><fmt:message key="imports.url"/></label>
      <input id="url" name="url" value="${fn:escapeXml(form.url)}" maxlength="2000" placeholder="${'${'}AMCP_UPSTREAM_SHOP}/openapi.json" aria-describedby="url-help">
      <p class="help" id="url-help"><fmt:message key="imports.url.help"/></p>
    </div>
    <div class="field">
      <label for="file"><fmt:message key="imports.file"/></label>
      <input type="file" id="file" accept=".json,.yaml,.yml,application/json,application/yaml">
      <label for="document"><fmt:message key="imports.document"/></label>
      <textarea id="document" name="document" rows="8" spellcheck="false" aria-describedby="document-help"><c:out value="${form.document}"/></textarea>
      <p class="help" id="document-help"><fmt:message key="imports.document.help"/></p>
    </div>
    <div class="field">
      <label for="base"><fmt:message key="imports.base"/></label>
      <input id="base" name="base" value="${fn:escapeXml(form.base)}" maxlength="2000" placeholder="${'${'}AMCP_UPSTREAM_SHOP}/v2" aria-describedby="base-help">
      <p class="help" id="base-help"><fmt:message key="imports.base.help"/></p>
    </div>
    <div class="field">
      <label for="credential"><fmt:message key="imports.credential"/></label>
      <input id="credential" name="credential" value="${fn:escapeXml(form.credential)}" maxlength="100" aria-describedby="credential-help">
      <p class="help" id="credential-help"><fmt:message key="imports.credential.help"/></p>
    </div>
    <div class="field">
      <label for="prefix"><fmt:message key="imports.prefix"/></label>
      <input id="prefix" name="prefix" value="${fn:escapeXml(form.prefix)}" maxlength="30">
    </div>
    <div class="progress" id="import-progress" hidden role="status" aria-live="polite">
      <progress id="import-progress-bar"></progress>
      <span id="import-progress-text" data-reading="<fmt:message key='imports.progress.reading'/>"
            data-sent="<fmt:message key='imports.progress.sent'/>"></span>
    </div>
    <c:if test="${canEdit}">
      <div class="actions"><button type="submit" class="primary" id="preview"><fmt:message key="imports.preview"/></button></div>
    </c:if>
  </fieldset>
</form>
<script src="${ctx}/admin/assets/imports.js" defer></script>
<%@ include file="_bottom.jspf" %>
