<c:set var="pageTitleKey" value="egress.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="egress.title"/></h1></div>
<p class="note"><fmt:message key="egress.intro"/></p>
<form method="post" action="${ctx}/admin/egress" class="card inline-form" id="egress-form" novalidate>
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <c:if test="${not empty formError}"><p class="field-error" id="egress-form-error" role="alert"><c:out value="${formError}"/></p></c:if>
  <div class="field">
    <label for="rule"><fmt:message key="egress.rule"/></label>
    <input id="rule" name="rule" value="${fn:escapeXml(rule)}" maxlength="300" class="mono" placeholder="*.corp.example">
  </div>
  <div class="field">
    <label for="note"><fmt:message key="egress.note"/></label>
    <input id="note" name="note" value="${fn:escapeXml(note)}" maxlength="500">
  </div>
  <div class="actions"><button type="submit" class="primary" id="egress-add"><fmt:message key="egress.add"/></button></div>
</form>
<c:choose>
  <c:when test="${empty rules}"><p class="empty" id="egress-empty"><fmt:message key="egress.empty"/></p></c:when>
  <c:otherwise>
    <div class="tablewrap">
    <table id="egress-table">
      <thead><tr><th><fmt:message key="egress.rule"/></th><th><fmt:message key="egress.note"/></th><th><fmt:message key="egress.by"/></th><th></th></tr></thead>
      <tbody>
      <c:forEach items="${rules}" var="r">
        <tr data-rule="${fn:escapeXml(r.rule)}">
          <td><code><c:out value="${r.rule}"/></code></td>
          <td><c:out value="${r.note}"/></td>
          <td><c:out value="${r.createdBy}"/></td>
          <td>
            <form method="post" action="${ctx}/admin/egress/${r.id}/delete">
              <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
              <button type="submit" class="danger small" id="egress-delete-${r.id}"><fmt:message key="egress.remove"/></button>
            </form>
          </td>
        </tr>
      </c:forEach>
      </tbody>
    </table>
    </div>
  </c:otherwise>
</c:choose>
<h2><fmt:message key="egress.allowedHosts"/></h2>
<p class="note" id="egress-allowed-hosts">
  <c:choose>
    <c:when test="${empty allowedHosts}"><fmt:message key="egress.allowedHostsNone"/></c:when>
    <c:otherwise><c:forEach items="${allowedHosts}" var="h" varStatus="s"><code><c:out value="${h}"/></code><c:if test="${not s.last}">, </c:if></c:forEach></c:otherwise>
  </c:choose>
</p>
<h2><fmt:message key="egress.grants"/></h2>
<p class="note"><fmt:message key="egress.grantsIntro"/></p>
<c:choose>
  <c:when test="${empty operatorUpstreams}"><p class="empty" id="grants-no-upstreams"><fmt:message key="egress.grantsNoUpstreams"/></p></c:when>
  <c:otherwise>
    <form method="post" action="${ctx}/admin/egress/grants" class="card inline-form" id="grant-form" novalidate>
      <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
      <c:if test="${not empty grantError}"><p class="field-error" id="grant-form-error" role="alert"><c:out value="${grantError}"/></p></c:if>
      <div class="field">
        <label for="grant-upstream"><fmt:message key="egress.grantUpstream"/></label>
        <select id="grant-upstream" name="upstream">
          <c:forEach items="${operatorUpstreams}" var="u"><option value="${fn:escapeXml(u)}" ${u == grantUpstream ? 'selected' : ''}>AMCP_UPSTREAM_<c:out value="${u}"/></option></c:forEach>
        </select>
      </div>
      <div class="field">
        <label for="grant-workspace"><fmt:message key="egress.grantWorkspace"/></label>
        <input id="grant-workspace" name="workspace" value="${fn:escapeXml(grantWorkspace)}" maxlength="64" class="mono">
      </div>
      <div class="actions"><button type="submit" class="primary" id="grant-add"><fmt:message key="egress.grant"/></button></div>
    </form>
  </c:otherwise>
</c:choose>
<c:if test="${not empty grants}">
  <div class="tablewrap">
  <table id="grants-table">
    <thead><tr><th><fmt:message key="egress.grantUpstream"/></th><th><fmt:message key="egress.grantWorkspace"/></th><th><fmt:message key="egress.by"/></th><th></th></tr></thead>
    <tbody>
    <c:forEach items="${grants}" var="g">
      <tr data-grant="${fn:escapeXml(g.upstream())} ${fn:escapeXml(g.workspace())}">
        <td><code>AMCP_UPSTREAM_<c:out value="${g.upstream()}"/></code></td>
        <td><c:out value="${g.workspace()}"/></td>
        <td><c:out value="${g.grantedBy()}"/></td>
        <td>
          <form method="post" action="${ctx}/admin/egress/${g.id()}/revoke-grant">
            <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
            <button type="submit" class="danger small" id="grant-revoke-${g.id()}"><fmt:message key="egress.revoke"/></button>
          </form>
        </td>
      </tr>
    </c:forEach>
    </tbody>
  </table>
  </div>
</c:if>
<%@ include file="_bottom.jspf" %>
