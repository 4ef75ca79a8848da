<c:set var="pageTitleKey" value="tools.codeTool"/>
<%@ include file="_top.jspf" %>
<div class="pagehead">
  <h1><fmt:message key="tools.codeTool"/> <code><c:out value="${tool.name}"/></code></h1>
  <a href="${ctx}/admin/tools"><fmt:message key="common.backToList"/></a>
</div>
<p class="note" id="code-mode-coming"><fmt:message key="tools.codeTool.coming"/></p>
<section class="card">
  <dl class="facts">
    <dt><fmt:message key="tools.server"/></dt><dd><c:out value="${form.server}"/></dd>
    <dt><fmt:message key="common.description"/></dt><dd><c:out value="${tool.description}"/></dd>
    <dt><fmt:message key="tools.access"/></dt><dd><fmt:message key="${tool.readOnly ? 'tools.read' : 'tools.write'}"/></dd>
  </dl>
  <label for="code"><fmt:message key="tools.code"/></label>
  <textarea id="code" rows="12" class="mono" readonly data-editor="javascript" aria-label="<fmt:message key='tools.code'/>"><c:out value="${tool.endpointMapping.getString('code', '')}"/></textarea>
</section>
<c:if test="${canEdit}">
  <form method="post" action="${ctx}/admin/tools/${tool.id}/delete" class="danger-zone">
    <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
    <button type="submit" class="danger" id="delete"><fmt:message key="tools.delete"/></button>
  </form>
</c:if>
<%@ include file="_bottom.jspf" %>
