<c:set var="pageTitleKey" value="tools.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead">
  <h1><fmt:message key="tools.title"/></h1>
  <c:if test="${canEdit}"><div class="actions">
    <a class="button" id="new-code-tool" href="${ctx}/admin/code-tools/new?server=${fn:escapeXml(selectedServer)}"><fmt:message key="tools.newCode"/></a>
    <a class="button primary" id="new-tool" href="${ctx}/admin/tools/new?server=${fn:escapeXml(selectedServer)}"><fmt:message key="tools.new"/></a>
  </div></c:if>
</div>
<c:if test="${not canEdit}"><p class="note" id="read-only-note"><fmt:message key="common.readOnly"/></p></c:if>
<form method="get" action="${ctx}/admin/tools" class="filter" id="tool-filter">
  <label for="filter-server"><fmt:message key="tools.filter.server"/></label>
  <select id="filter-server" name="server">
    <option value=""><fmt:message key="tools.filter.all"/></option>
    <c:forEach items="${servers}" var="s">
      <option value="${fn:escapeXml(s.slug)}" ${s.slug == selectedServer ? 'selected' : ''}><c:out value="${s.name}"/></option>
    </c:forEach>
  </select>
  <button type="submit" id="filter-apply"><fmt:message key="tools.filter.apply"/></button>
</form>
<c:choose>
  <c:when test="${empty tools}"><p class="empty" id="tools-empty"><fmt:message key="tools.empty"/></p></c:when>
  <c:otherwise>
    <div class="tablewrap">
    <table id="tools-table">
      <thead><tr>
        <th><fmt:message key="tools.name"/></th>
        <th><fmt:message key="tools.server"/></th>
        <th><fmt:message key="tools.kind"/></th>
        <th><fmt:message key="tools.access"/></th>
        <th><fmt:message key="common.description"/></th>
      </tr></thead>
      <tbody>
      <c:forEach items="${tools}" var="t">
        <tr>
          <td><a href="${ctx}/admin/${t.codeTool ? 'code-tools' : 'tools'}/${t.id}" class="tool-link"><c:out value="${t.name}"/></a></td>
          <td><c:out value="${serverSlugs[t.serverId]}"/></td>
          <td><span class="badge ${t.codeTool ? 'code' : 'http'}">${t.codeTool ? 'code' : fn:escapeXml(t.method)}</span><c:if test="${needsReview.contains(t.id)}"> <span class="badge status-refused needs-review" id="needs-review-${fn:escapeXml(t.name)}"><fmt:message key="tools.needsReview"/></span></c:if></td>
          <td><fmt:message key="${t.readOnly ? 'tools.read' : 'tools.write'}"/></td>
          <td class="desc"><c:out value="${t.description}"/></td>
        </tr>
      </c:forEach>
      </tbody>
    </table>
    </div>
  </c:otherwise>
</c:choose>
<%@ include file="_bottom.jspf" %>
