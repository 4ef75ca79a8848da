<c:set var="pageTitleKey" value="runs.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="runs.title"/></h1></div>
<form method="get" action="${ctx}/admin/runs" class="filter" id="run-filter">
  <label for="filter-status"><fmt:message key="runs.status"/></label>
  <select id="filter-status" name="status">
    <option value=""><fmt:message key="runs.filter.any"/></option>
    <c:forEach items="${statuses}" var="s"><option value="${s}" ${s == filter.status ? 'selected' : ''}>${s}</option></c:forEach>
  </select>
  <label for="filter-tool"><fmt:message key="runs.tool"/></label>
  <select id="filter-tool" name="tool">
    <option value=""><fmt:message key="runs.filter.any"/></option>
    <c:forEach items="${toolNames}" var="t"><option value="${fn:escapeXml(t)}" ${t == filter.tool ? 'selected' : ''}><c:out value="${t}"/></option></c:forEach>
  </select>
  <label for="filter-user"><fmt:message key="runs.user"/></label>
  <select id="filter-user" name="user">
    <option value=""><fmt:message key="runs.filter.any"/></option>
    <c:forEach items="${usernames}" var="u"><option value="${fn:escapeXml(u.value)}" ${u.value == filter.user ? 'selected' : ''}><c:out value="${u.value}"/></option></c:forEach>
  </select>
  <label for="filter-from"><fmt:message key="runs.from"/></label>
  <input type="date" id="filter-from" name="from" value="${fn:escapeXml(filter.from)}" class="date">
  <label for="filter-to"><fmt:message key="runs.to"/></label>
  <input type="date" id="filter-to" name="to" value="${fn:escapeXml(filter.to)}" class="date">
  <button type="submit" id="filter-apply"><fmt:message key="tools.filter.apply"/></button>
</form>
<c:choose>
  <c:when test="${empty runs}"><p class="empty" id="runs-empty"><fmt:message key="runs.empty"/></p></c:when>
  <c:otherwise>
    <div class="tablewrap">
    <table id="runs-table">
      <thead><tr>
        <th><fmt:message key="runs.started"/></th>
        <th><fmt:message key="runs.tool"/></th>
        <th><fmt:message key="runs.user"/></th>
        <th><fmt:message key="runs.status"/></th>
        <th class="num"><fmt:message key="runs.bridgeCalls"/></th>
        <th class="num"><fmt:message key="runs.wallMs"/></th>
        <th><fmt:message key="runs.error"/></th>
      </tr></thead>
      <tbody>
      <c:forEach items="${runs}" var="r">
        <tr data-run="${fn:escapeXml(r.runId)}">
          <td><a href="${ctx}/admin/runs/${fn:escapeXml(r.runId)}" class="run-link"><c:out value="${fn:replace(fn:substring(r.startedAt, 0, 19), 'T', ' ')}"/></a></td>
          <td><c:choose><c:when test="${r.inlineRun}"><span class="badge inline">code_execute</span></c:when><c:otherwise><c:out value="${r.toolName}"/></c:otherwise></c:choose></td>
          <td><c:out value="${usernames[r.invokerUserId]}"/></td>
          <td><span class="badge status-${fn:toLowerCase(r.status)}"><c:out value="${r.status}"/></span><c:if test="${r.kind != 'live'}"> <span class="badge run-kind"><fmt:message key="runs.kind.${r.kind == 'dry_run' ? 'dryRun' : r.kind}"/></span></c:if></td>
          <td class="num"><c:out value="${r.bridgeCalls}"/></td>
          <td class="num"><c:out value="${r.wallMs}"/></td>
          <td class="desc"><c:out value="${r.error}"/></td>
        </tr>
      </c:forEach>
      </tbody>
    </table>
    </div>
  </c:otherwise>
</c:choose>
<%@ include file="_bottom.jspf" %>
