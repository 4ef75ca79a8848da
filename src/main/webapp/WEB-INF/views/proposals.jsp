<c:set var="pageTitleKey" value="proposals.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="proposals.title"/></h1></div>
<p class="help"><fmt:message key="proposals.help"/></p>
<form method="get" action="${ctx}/admin/proposals" class="filter" id="proposal-filter">
  <label for="filter-status"><fmt:message key="proposals.status"/></label>
  <select id="filter-status" name="status">
    <c:forEach items="${statuses}" var="s"><option value="${s}" ${s == status ? 'selected' : ''}><fmt:message key="proposals.status.${s}"/></option></c:forEach>
  </select>
  <button type="submit" id="filter-apply"><fmt:message key="tools.filter.apply"/></button>
</form>
<c:choose>
  <c:when test="${empty proposals}"><p class="empty" id="proposals-empty"><fmt:message key="proposals.empty"/></p></c:when>
  <c:otherwise>
    <div class="tablewrap">
    <table id="proposals-table">
      <thead><tr>
        <th><fmt:message key="tools.name"/></th>
        <th><fmt:message key="tools.server"/></th>
        <th><fmt:message key="common.description"/></th>
        <th><fmt:message key="proposals.created"/></th>
      </tr></thead>
      <tbody>
      <c:forEach items="${proposals}" var="p">
        <tr data-name="${fn:escapeXml(p.name)}">
          <td><a href="${ctx}/admin/proposals/${p.id}" class="proposal-link"><c:out value="${p.name}"/></a></td>
          <td><c:out value="${serverSlugs[p.serverId]}"/></td>
          <td class="desc"><c:out value="${p.description}"/></td>
          <td><c:out value="${fn:replace(fn:substring(p.createdAt, 0, 19), 'T', ' ')}"/></td>
        </tr>
      </c:forEach>
      </tbody>
    </table>
    </div>
  </c:otherwise>
</c:choose>
<%@ include file="_bottom.jspf" %>
