package dev.amcp.gateway.editor.boundary;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Marks the session cookie {@code Secure} when the editor is served over TLS ({@code AMCP_SECURE_COOKIES=true}, for
 * HTTPS on Liberty or on a TLS proxy in front of it). {@code web.xml} already makes it HttpOnly and SameSite=Lax.
 */
@WebListener
public class SessionCookieSetup implements ServletContextListener {

    public static final String SETTING = "AMCP_SECURE_COOKIES";

    @Override
    public void contextInitialized(ServletContextEvent event) {
        boolean secure = ConfigProvider.getConfig().getOptionalValue(SETTING, Boolean.class).orElse(false);
        event.getServletContext().getSessionCookieConfig().setSecure(secure);
    }
}
