<c:set var="pageTitleKey" value="audit.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="audit.title"/></h1></div>
<form method="get" action="${ctx}/admin/audit" class="filter" id="audit-filter">
  <label for="filter-kind"><fmt:message key="audit.kind"/></label>
  <select id="filter-kind" name="kind">
    <option value=""><fmt:message key="runs.filter.any"/></option>
    <c:forEach items="${kinds}" var="k"><option value="${k}" ${k == filter.kind ? 'selected' : ''}>${k}</option></c:forEach>
  </select>
  <label for="filter-actor"><fmt:message key="audit.actor"/></label>
  <input id="filter-actor" name="actor" value="${fn:escapeXml(filter.actor)}" maxlength="100">
  <label for="filter-since"><fmt:message key="runs.from"/></label>
  <input type="date" id="filter-since" name="since" value="${fn:escapeXml(filter.since)}" class="date">
  <label for="filter-until"><fmt:message key="runs.to"/></label>
  <input type="date" id="filter-until" name="until" value="${fn:escapeXml(filter.until)}" class="date">
  <label for="filter-limit"><fmt:message key="audit.limit"/></label>
  <input id="filter-limit" name="limit" value="${fn:escapeXml(filter.limit)}" size="4" inputmode="numeric">
  <c:if test="${operatorView}">
    <label for="filter-workspace"><fmt:message key="audit.workspace"/></label>
    <input id="filter-workspace" name="workspace" value="${fn:escapeXml(filter.workspace)}" maxlength="63">
  </c:if>
  <button type="submit" id="filter-apply"><fmt:message key="tools.filter.apply"/></button>
</form>
<c:choose>
  <c:when test="${empty changes}"><p class="empty" id="audit-empty"><fmt:message key="audit.empty"/></p></c:when>
  <c:otherwise>
    <div class="tablewrap">
    <table id="audit-table">
      <thead><tr>
        <th><fmt:message key="audit.at"/></th>
        <th><fmt:message key="audit.actor"/></th>
        <c:if test="${operatorView}"><th><fmt:message key="audit.workspace"/></th></c:if>
        <th><fmt:message key="audit.kind"/></th>
        <th><fmt:message key="audit.subject"/></th>
        <th><fmt:message key="audit.action"/></th>
        <th><fmt:message key="audit.before"/></th>
        <th><fmt:message key="audit.after"/></th>
      </tr></thead>
      <tbody>
      <c:forEach items="${changes}" var="e">
        <tr data-kind="${fn:escapeXml(e.kind)}" data-subject="${fn:escapeXml(e.subject)}">
          <td><c:out value="${fn:replace(fn:substring(e.at, 0, 19), 'T', ' ')}"/></td>
          <td class="actor"><c:out value="${e.actorUsername}"/><c:if test="${e.actorOperator}"> <span class="badge">operator</span></c:if></td>
          <c:if test="${operatorView}"><td><c:out value="${e.workspaceId}"/></td></c:if>
          <td class="kind"><c:out value="${e.kind}"/></td>
          <td class="subject"><c:out value="${e.subject}"/></td>
          <td class="action"><c:out value="${e.action}"/></td>
          <td class="desc"><code><c:out value="${e.before}"/></code></td>
          <td class="desc"><code><c:out value="${e.after}"/></code></td>
        </tr>
      </c:forEach>
      </tbody>
    </table>
    </div>
  </c:otherwise>
</c:choose>
<%@ include file="_bottom.jspf" %>
