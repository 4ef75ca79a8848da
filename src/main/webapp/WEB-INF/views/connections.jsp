<c:set var="pageTitleKey" value="connections.title"/>
<%@ include file="_top.jspf" %>
<div class="pagehead"><h1><fmt:message key="connections.title"/></h1></div>
<p class="note"><fmt:message key="connections.intro"/></p>
<c:choose>
  <c:when test="${empty servers}"><p class="empty" id="connections-empty"><fmt:message key="connections.empty"/></p></c:when>
  <c:otherwise>
    <c:forEach items="${servers}" var="s">
      <section class="card" id="connection-${s.id}" data-server="${fn:escapeXml(s.name)}">
        <h2><code><c:out value="${s.name}"/></code></h2>
        <c:choose>
          <c:when test="${empty s.mine}">
            <p class="connection-state" id="connection-${s.id}-state"><fmt:message key="connections.notConnected"/></p>
            <%-- a link, not a form: the page's CSP (form-action 'self') would stop a form's redirect to the server's sign-in --%>
            <p><a class="button primary" href="${ctx}/admin/connections/${s.id}/connect" id="connection-${s.id}-connect"><fmt:message key="connections.connect"/></a></p>
          </c:when>
          <c:otherwise>
            <p class="connection-state" id="connection-${s.id}-state">
              <fmt:message key="connections.connectedSince"><fmt:param value="${s.mine.connectedAt()}"/></fmt:message>
              <c:if test="${not empty s.mine.expiresAt()}"> &middot; <fmt:message key="connections.expires"><fmt:param value="${s.mine.expiresAt()}"/></fmt:message></c:if>
            </p>
            <form method="post" action="${ctx}/admin/connections/${s.id}/disconnect">
              <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
              <button type="submit" class="small" id="connection-${s.id}-disconnect"><fmt:message key="connections.disconnect"/></button>
            </form>
          </c:otherwise>
        </c:choose>
        <c:if test="${admin}">
          <h3><fmt:message key="connections.everyone"/></h3>
          <c:choose>
            <c:when test="${empty s.everyone}"><p class="empty"><fmt:message key="connections.nobody"/></p></c:when>
            <c:otherwise>
              <table class="accounts" id="connection-${s.id}-accounts">
                <c:forEach items="${s.everyone}" var="a">
                  <tr data-user="${fn:escapeXml(a.username())}">
                    <td><c:out value="${a.username()}"/></td>
                    <td><c:out value="${a.connectedAt()}"/></td>
                    <td>
                      <form method="post" action="${ctx}/admin/connections/${s.id}/revoke">
                        <input type="hidden" name="_csrf" value="${fn:escapeXml(csrf)}">
                        <input type="hidden" name="userId" value="${a.userId()}">
                        <button type="submit" class="danger small"><fmt:message key="connections.revoke"/></button>
                      </form>
                    </td>
                  </tr>
                </c:forEach>
              </table>
            </c:otherwise>
          </c:choose>
        </c:if>
      </section>
    </c:forEach>
  </c:otherwise>
</c:choose>
<%@ include file="_bottom.jspf" %>
