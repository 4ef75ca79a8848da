<c:set var="pageTitleKey" value="roles.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="roles.title"/></h1></div>
<div class="tablewrap">
<table id="roles-table">
  <thead><tr>
    <th><fmt:message key="roles.name"/></th>
    <th><fmt:message key="roles.capabilities"/></th>
    <th><fmt:message key="roles.scope"/></th>
    <th class="num"><fmt:message key="roles.holders"/></th>
  </tr></thead>
  <tbody>
  <c:forEach items="${roles}" var="r">
    <tr data-role="${fn:escapeXml(r.role().name)}">
      <td><a href="${ctx}/admin/roles/${fn:escapeXml(r.role().name)}" class="role-link"><c:out value="${r.role().name}"/></a>
        <c:if test="${r.role().builtin}"><span class="badge builtin"><fmt:message key="roles.builtin"/></span></c:if></td>
      <td class="caps"><c:forEach items="${r.role().capabilities}" var="cap"><code><c:out value="${cap}"/></code> </c:forEach></td>
      <td class="scope"><c:choose>
        <c:when test="${empty r.servers()}"><c:choose><c:when test="${r.servers() == null}"><fmt:message key="roles.scope.all"/></c:when><c:otherwise><fmt:message key="roles.scope.none"/></c:otherwise></c:choose></c:when>
        <c:otherwise><c:forEach items="${r.servers()}" var="s"><code><c:out value="${s}"/></code> </c:forEach></c:otherwise>
      </c:choose></td>
      <td class="num holders"><c:out value="${r.holders()}"/></td>
    </tr>
  </c:forEach>
  </tbody>
</table>
</div>
<h2><fmt:message key="roles.new"/></h2>
<form method="post" action="${ctx}/admin/roles" class="card" id="role-form" novalidate>
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <div class="field">
    <label for="name"><fmt:message key="roles.name"/></label>
    <input id="name" name="name" value="${fn:escapeXml(typed.name())}" maxlength="64">
    <p class="help"><fmt:message key="roles.name.help"/></p>
  </div>
  <%@ include file="_role-fields.jspf" %>
  <div class="actions"><button type="submit" class="primary" id="create-role"><fmt:message key="roles.create"/></button></div>
</form>
<%@ include file="_bottom.jspf" %>
