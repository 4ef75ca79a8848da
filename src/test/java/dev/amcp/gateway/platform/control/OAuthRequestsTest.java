package dev.amcp.gateway.platform.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OAuthRequestsTest {

    private static final URI TOKEN = URI.create("https://as.example/token");

    @Test
    void aConfidentialClientAuthenticatesWithBasicAndBothPartsFormEncoded() throws Exception {
        HttpRequest request = OAuthRequests.tokenPost(TOKEN, "app:1", "s3cret+/=", form(), Duration.ofSeconds(5)).build();
        String basic = request.headers().firstValue("Authorization").orElseThrow();
        assertEquals("app%3A1:s3cret%2B%2F%3D", new String(Base64.getDecoder().decode(basic.substring("Basic ".length())), StandardCharsets.UTF_8));
        assertEquals("grant_type=authorization_code&code=a+b%26c", body(request));
        assertEquals("application/x-www-form-urlencoded", request.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("POST", request.method());
    }

    @Test
    void aPublicClientNamesItselfInTheForm() throws Exception {
        HttpRequest request = OAuthRequests.tokenPost(TOKEN, "app:1", null, form(), Duration.ofSeconds(5)).build();
        assertTrue(request.headers().firstValue("Authorization").isEmpty());
        assertEquals("grant_type=authorization_code&code=a+b%26c&client_id=app%3A1", body(request));
    }

    @Test
    void theAuthorizationUrlKeepsTheEndpointsOwnQuery() {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("state", "x y");
        query.put("resource", "https://mcp.example/mcp");
        assertEquals("https://as.example/authorize?state=x+y&resource=https%3A%2F%2Fmcp.example%2Fmcp",
                OAuthRequests.authorizationUrl("https://as.example/authorize", query));
        assertEquals("https://as.example/authorize?tenant=a&state=x+y&resource=https%3A%2F%2Fmcp.example%2Fmcp",
                OAuthRequests.authorizationUrl("https://as.example/authorize?tenant=a", query));
    }

    private static Map<String, String> form() {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("code", "a b&c");
        return form;
    }

    private static String body(HttpRequest request) throws Exception {
        CompletableFuture<String> done = new CompletableFuture<>();
        StringBuilder text = new StringBuilder();
        request.bodyPublisher().orElseThrow().subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer item) {
                text.append(StandardCharsets.UTF_8.decode(item));
            }

            @Override
            public void onError(Throwable throwable) {
                done.completeExceptionally(throwable);
            }

            @Override
            public void onComplete() {
                done.complete(text.toString());
            }
        });
        return done.get(5, TimeUnit.SECONDS);
    }
}
