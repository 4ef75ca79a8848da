<c:set var="pageTitleKey" value="imports.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="imports.title"/></h1><a href="${ctx}/admin/imports"><fmt:message key="imports.again"/></a></div>
<ol class="steps" id="import-steps"><li><fmt:message key="imports.step.source"/></li><li class="current"><fmt:message key="imports.step.review"/></li><li><fmt:message key="imports.step.done"/></li></ol>
<p id="import-summary"><fmt:message key="imports.summary">
  <fmt:param value="${preview.getString('title')}"/><fmt:param value="${fn:length(operations)}"/><fmt:param value="${preview.getString('server')}"/><fmt:param value="${preview.getString('base')}"/>
</fmt:message></p>
<form method="post" action="${ctx}/admin/imports/${preview.getJsonNumber('id')}/apply" id="apply-form">
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <div class="tablewrap">
  <table id="operations-table">
    <thead><tr>
      <th><fmt:message key="imports.col.take"/></th>
      <th><fmt:message key="imports.col.name"/></th>
      <th><fmt:message key="imports.col.operation"/></th>
      <th><fmt:message key="imports.col.readOnly"/></th>
      <th><fmt:message key="imports.col.status"/></th>
      <th><fmt:message key="imports.col.details"/></th>
    </tr></thead>
    <tbody>
    <c:forEach items="${operations}" var="op" varStatus="i">
      <tr id="op-${i.index}" data-operation="${fn:escapeXml(op.operationId)}" data-status="${op.status}">
        <td><input type="checkbox" name="op" value="${fn:escapeXml(op.operationId)}" id="take-${i.index}"
                   ${op.checked ? 'checked' : ''} ${empty op.unsupported ? '' : 'disabled'} aria-label="${fn:escapeXml(op.name)}"></td>
        <td><code><c:out value="${op.name}"/></code></td>
        <td><span class="badge"><c:out value="${op.method}"/></span> <code><c:out value="${op.path}"/></code>
          <div class="help"><c:out value="${op.description}"/></div></td>
        <td><input type="checkbox" name="ro" value="${fn:escapeXml(op.operationId)}" id="ro-${i.index}" ${op.readOnly ? 'checked' : ''}
                   aria-label="<fmt:message key='imports.col.readOnly'/>"></td>
        <td class="status"><c:choose>
          <c:when test="${not empty op.unsupported}"><span class="badge revoked"><fmt:message key="imports.status.unsupported"/></span></c:when>
          <c:otherwise><span class="badge ${op.status == 'unchanged' ? '' : 'active'}"><fmt:message key="imports.status.${op.status}"/></span></c:otherwise>
        </c:choose></td>
        <td class="details">
          <c:if test="${not empty op.unsupported}"><p class="field-error"><c:out value="${op.unsupported}"/></p></c:if>
          <p class="help"><fmt:message key="imports.arguments"/> <c:out value="${op.arguments}"/><c:if test="${op.outputSchema}"> · <fmt:message key="imports.hasOutput"/></c:if></p>
          <c:if test="${not empty op.changes}"><ul class="changes"><c:forEach items="${op.changes}" var="ch"><li><c:out value="${ch}"/></li></c:forEach></ul></c:if>
          <c:if test="${not empty op.notes}"><ul class="notes"><c:forEach items="${op.notes}" var="n"><li><c:out value="${n}"/></li></c:forEach></ul></c:if>
        </td>
      </tr>
    </c:forEach>
    </tbody>
  </table>
  </div>
  <c:if test="${not empty removed}">
    <fieldset class="card" id="removed">
      <legend><fmt:message key="imports.removed"/></legend>
      <c:forEach items="${removed}" var="r">
        <label class="choice"><input type="checkbox" name="remove" value="${fn:escapeXml(r)}" id="remove-${fn:escapeXml(r)}"> <code><c:out value="${r}"/></code></label>
      </c:forEach>
    </fieldset>
  </c:if>
  <div class="actions"><button type="submit" class="primary" id="apply"><fmt:message key="imports.apply"/></button></div>
</form>
<%@ include file="_bottom.jspf" %>
