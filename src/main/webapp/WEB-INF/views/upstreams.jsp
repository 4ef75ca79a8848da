<c:set var="pageTitleKey" value="upstreams.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="upstreams.title"/></h1></div>
<p class="note"><fmt:message key="upstreams.intro"/></p>
<c:choose>
  <c:when test="${empty upstreams}"><p class="empty" id="upstreams-empty"><fmt:message key="upstreams.empty"/></p></c:when>
  <c:otherwise>
    <c:forEach items="${upstreams}" var="u">
      <section class="card" id="upstream-${u.id}">
        <h2><c:out value="${u.name}"/></h2>
        <p class="help"><fmt:message key="upstreams.summary"><fmt:param value="${u.url}"/><fmt:param value="${u.server}"/></fmt:message>
          <c:if test="${u.perPerson}"> · <a href="${ctx}/admin/connections" id="upstream-${u.id}-accounts"><fmt:message key="upstreams.accounts"/></a></c:if>
          <c:if test="${not empty u.credential}"> · <fmt:message key="upstreams.credential"/> <code><c:out value="${u.credential}"/></code></c:if><c:if test="${not empty u.upstream}"> · <fmt:message key="tools.upstream"/> <code><c:out value="${u.upstream}"/></code></c:if></p>
        <c:if test="${u.listChanged}"><p class="note" id="upstream-${u.id}-changed"><fmt:message key="upstreams.listChanged"/></p></c:if>
        <div class="tablewrap">
        <table id="upstream-${u.id}-tools">
          <thead><tr><th><fmt:message key="upstreams.col.tool"/></th><th><fmt:message key="upstreams.col.access"/></th><th></th></tr></thead>
          <tbody>
          <c:forEach items="${u.tools}" var="t">
            <tr data-tool="${fn:escapeXml(t.name)}">
              <td><code><c:out value="${t.name}"/></code></td>
              <td><fmt:message key="${t.readOnly ? 'upstreams.read' : 'upstreams.write'}"/><c:if test="${t.readOnly and not t.hintReadOnly}"> (<fmt:message key="upstreams.markedByAdmin"/>)</c:if></td>
              <td><c:if test="${not t.hintReadOnly}">
                <form method="post" action="${ctx}/admin/upstream-servers/${u.id}/read-only">
                  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
                  <input type="hidden" name="tool" value="${fn:escapeXml(t.name)}">
                  <input type="hidden" name="readOnly" value="${t.readOnly ? 'false' : 'true'}">
                  <button type="submit" class="small"><fmt:message key="${t.readOnly ? 'upstreams.markWrite' : 'upstreams.markRead'}"/></button>
                </form>
              </c:if></td>
            </tr>
          </c:forEach>
          </tbody>
        </table>
        </div>
        <div class="actions">
          <form method="post" action="${ctx}/admin/upstream-servers/${u.id}/refresh">
            <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
            <button type="submit" id="upstream-${u.id}-refresh"><fmt:message key="upstreams.refresh"/></button>
          </form>
          <c:if test="${u.pending}"><a href="${ctx}/admin/upstream-servers/${u.id}/refresh" id="upstream-${u.id}-review"><fmt:message key="upstreams.review"/></a></c:if>
          <form method="post" action="${ctx}/admin/upstream-servers/${u.id}/delete">
            <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
            <button type="submit" class="danger" id="upstream-${u.id}-delete"><fmt:message key="upstreams.delete"/></button>
          </form>
        </div>
      </section>
    </c:forEach>
  </c:otherwise>
</c:choose>
<form method="post" action="${ctx}/admin/upstream-servers" class="card" id="upstream-form" novalidate>
  <h2><fmt:message key="upstreams.register"/></h2>
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <c:if test="${not empty formError}"><p class="field-error" id="upstream-form-error" role="alert"><c:out value="${formError}"/></p></c:if>
  <div class="field">
    <label for="name"><fmt:message key="upstreams.name"/></label>
    <input id="name" name="name" value="${fn:escapeXml(form.name)}" maxlength="64" required>
  </div>
  <div class="field">
    <label for="server"><fmt:message key="upstreams.server"/></label>
    <select id="server" name="server">
      <c:forEach items="${servers}" var="s">
        <option value="${fn:escapeXml(s.slug)}" ${s.slug == form.server ? 'selected' : ''}><c:out value="${s.name}"/> (<c:out value="${s.slug}"/>)</option>
      </c:forEach>
    </select>
  </div>
  <c:if test="${not empty apis}">
  <div class="field">
    <label for="upstream"><fmt:message key="tools.upstream"/></label>
    <select id="upstream" name="upstream" aria-describedby="upstream-help">
      <option value=""><fmt:message key="tools.upstream.none"/></option>
      <c:forEach items="${apis}" var="a"><option value="${fn:escapeXml(a)}" ${a == form.upstream ? 'selected' : ''}><c:out value="${a}"/></option></c:forEach>
    </select>
    <p class="help" id="upstream-help"><fmt:message key="upstreams.upstream.help"/></p>
  </div>
  </c:if>
  <div class="field">
    <label for="url"><fmt:message key="upstreams.url"/></label>
    <input id="url" name="url" value="${fn:escapeXml(form.url)}" maxlength="2000" placeholder="${'${'}AMCP_UPSTREAM_GITHUB}/mcp" aria-describedby="url-help" required>
    <p class="help" id="url-help"><fmt:message key="upstreams.url.help"/></p>
  </div>
  <div class="field">
    <label for="prefix"><fmt:message key="upstreams.prefix"/></label>
    <input id="prefix" name="prefix" value="${fn:escapeXml(form.prefix)}" maxlength="32">
  </div>
  <div class="field">
    <label for="credential"><fmt:message key="upstreams.credential"/></label>
    <input id="credential" name="credential" value="${fn:escapeXml(form.credential)}" maxlength="64" aria-describedby="credential-help">
    <p class="help" id="credential-help"><fmt:message key="upstreams.credential.help"/></p>
  </div>
  <fieldset class="field" id="upstream-accounts">
    <label><input type="checkbox" id="accounts" name="accounts" value="true" ${form.accounts == 'true' ? 'checked' : ''}> <fmt:message key="upstreams.accounts"/></label>
    <div class="grid2 tight">
      <div class="field"><label for="clientId"><fmt:message key="upstreams.clientId"/></label>
        <input id="clientId" name="clientId" value="${fn:escapeXml(form.clientId)}" maxlength="500"></div>
      <div class="field"><label for="clientSecret"><fmt:message key="upstreams.clientSecret"/></label>
        <input id="clientSecret" name="clientSecret" type="password" autocomplete="new-password"></div>
      <div class="field"><label for="scope"><fmt:message key="upstreams.scope"/></label>
        <input id="scope" name="scope" value="${fn:escapeXml(form.scope)}" maxlength="1000"></div>
    </div>
  </fieldset>
  <div class="actions"><button type="submit" class="primary" id="upstream-register"><fmt:message key="upstreams.register"/></button></div>
</form>
<%@ include file="_bottom.jspf" %>
