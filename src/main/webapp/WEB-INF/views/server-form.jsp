<c:set var="pageTitleKey" value="${empty form.id ? 'servers.create' : 'servers.edit'}"/>
<%@ include file="_top.jspf" %>
<div class="pagehead">
  <h1><fmt:message key="${pageTitleKey}"/></h1>
  <a href="${ctx}/admin/servers"><fmt:message key="common.backToList"/></a>
</div>
<c:if test="${not canEdit}"><p class="note" id="read-only-note"><fmt:message key="common.readOnly"/></p></c:if>
<form method="post" action="${ctx}/admin/servers/${empty form.id ? 'new' : form.id}" class="card" id="server-form" novalidate>
  <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
  <fieldset ${canEdit ? '' : 'disabled'}>
    <div class="field ${empty errors.name ? '' : 'invalid'}">
      <label for="name"><fmt:message key="servers.name"/></label>
      <input id="name" name="name" value="${fn:escapeXml(form.name)}" maxlength="200" aria-describedby="name-error">
      <c:if test="${not empty errors.name}"><p class="field-error" id="name-error"><c:out value="${errors.name}"/></p></c:if>
    </div>
    <div class="field ${empty errors.slug ? '' : 'invalid'}">
      <label for="slug"><fmt:message key="servers.slug"/></label>
      <input id="slug" name="slug" value="${fn:escapeXml(form.slug)}" maxlength="63" aria-describedby="slug-help slug-error">
      <p class="help" id="slug-help"><fmt:message key="servers.slug.help"/></p>
      <c:if test="${not empty errors.slug}"><p class="field-error" id="slug-error"><c:out value="${errors.slug}"/></p></c:if>
    </div>
    <div class="field ${empty errors.description ? '' : 'invalid'}">
      <label for="description"><fmt:message key="common.description"/></label>
      <textarea id="description" name="description" rows="2" maxlength="2000"><c:out value="${form.description}"/></textarea>
      <c:if test="${not empty errors.description}"><p class="field-error" id="description-error"><c:out value="${errors.description}"/></p></c:if>
    </div>
    <fieldset class="field ${empty errors.codeMode ? '' : 'invalid'}">
      <legend><fmt:message key="servers.codeMode"/></legend>
      <c:forEach items="${['off', 'inline']}" var="m">
        <label class="choice"><input type="radio" name="codeMode" value="${m}" id="codeMode-${m}" ${form.codeMode == m ? 'checked' : ''}>
          <fmt:message key="servers.codeMode.${m}"/></label>
      </c:forEach>
      <p class="help"><fmt:message key="servers.codeMode.help"/></p>
      <c:if test="${not empty errors.codeMode}"><p class="field-error" id="codeMode-error"><c:out value="${errors.codeMode}"/></p></c:if>
    </fieldset>
    <fieldset class="field ${empty errors.roles ? '' : 'invalid'}">
      <legend><fmt:message key="servers.roles"/></legend>
      <c:forEach items="${roles}" var="r">
        <label class="choice"><input type="checkbox" name="roles" value="${r.id}" id="role-${fn:escapeXml(r.name)}" ${form.roleIds.contains(r.id) ? 'checked' : ''}>
          <c:out value="${r.name}"/></label>
      </c:forEach>
      <p class="help"><fmt:message key="servers.roles.help"/></p>
      <c:if test="${not empty errors.roles}"><p class="field-error" id="roles-error"><c:out value="${errors.roles}"/></p></c:if>
    </fieldset>
    <c:if test="${canEdit}">
      <div class="actions"><button type="submit" class="primary" id="save"><fmt:message key="common.save"/></button></div>
    </c:if>
  </fieldset>
</form>
<%@ include file="_bottom.jspf" %>
