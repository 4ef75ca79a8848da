<c:set var="pageTitleKey" value="upstreams.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="upstreams.refreshOf"><fmt:param value="${upstream.name}"/></fmt:message></h1>
  <a href="${ctx}/admin/upstream-servers"><fmt:message key="common.backToList"/></a></div>
<c:if test="${listChanged}"><p class="note"><fmt:message key="upstreams.listChanged"/></p></c:if>
<form method="post" action="${ctx}/admin/upstream-servers/${upstream.id}/apply" id="refresh-form">
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <div class="tablewrap">
  <table id="refresh-table">
    <thead><tr>
      <th><fmt:message key="imports.col.take"/></th>
      <th><fmt:message key="imports.col.name"/></th>
      <th><fmt:message key="imports.col.status"/></th>
      <th><fmt:message key="upstreams.col.changes"/></th>
    </tr></thead>
    <tbody>
    <c:forEach items="${rows}" var="r" varStatus="i">
      <tr data-tool="${fn:escapeXml(r.name)}" data-status="${r.status}">
        <td><input type="checkbox" name="tool" value="${fn:escapeXml(r.name)}" id="take-${i.index}" ${r.status == 'unchanged' ? 'disabled' : 'checked'}
                   aria-label="${fn:escapeXml(r.name)}"></td>
        <td><code><c:out value="${r.name}"/></code></td>
        <td><span class="badge ${r.status == 'unchanged' ? '' : 'active'}"><fmt:message key="imports.status.${r.status}"/></span></td>
        <td><c:if test="${not empty r.changes}"><ul class="changes"><c:forEach items="${r.changes}" var="ch"><li><c:out value="${ch}"/></li></c:forEach></ul></c:if></td>
      </tr>
    </c:forEach>
    </tbody>
  </table>
  </div>
  <c:if test="${not empty removed}">
    <fieldset class="card" id="removed">
      <legend><fmt:message key="upstreams.removed"/></legend>
      <c:forEach items="${removed}" var="r">
        <label class="choice"><input type="checkbox" name="remove" value="${fn:escapeXml(r)}" id="remove-${fn:escapeXml(r)}"> <code><c:out value="${r}"/></code></label>
      </c:forEach>
    </fieldset>
  </c:if>
  <div class="actions"><button type="submit" class="primary" id="apply"><fmt:message key="upstreams.apply"/></button></div>
</form>
<%@ include file="_bottom.jspf" %>
