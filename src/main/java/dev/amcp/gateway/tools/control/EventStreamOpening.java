package dev.amcp.gateway.tools.control;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import reactor.core.publisher.Mono;

/**
 * Holds an upstream connection's {@code notifications/initialized} until the upstream has answered the SDK client's
 * first GET, the stream on which it sends notifications such as {@code notifications/tools/list_changed}.
 *
 * <p>Why: the SDK opens that stream when {@code initialize} returns a session and sends {@code notifications/initialized}
 * at the same time, over a pooled connection that is often quicker. A server that registers tools once it is
 * initialized (server-everything does) then announces them before the stream exists, and the announcement is lost:
 * the gateway never stages the refresh. The SDK builds its HTTP client from the builder given here, whose client
 * reports the first GET's answer (any status, or a failure); a connection whose upstream gets no GET (no session)
 * sends at once, and a stream that does not answer within {@link #MAX_WAIT} is not waited for longer.
 */
final class EventStreamOpening {

    static final Duration MAX_WAIT = Duration.ofSeconds(5);

    private final AtomicBoolean requested = new AtomicBoolean();
    private final CompletableFuture<Void> answered = new CompletableFuture<>();

    /** The builder to give the SDK's transport: it builds the JDK client of {@code builder}, watched. */
    HttpClient.Builder watching(HttpClient.Builder builder) {
        return new WatchingBuilder(builder);
    }

    /** Sends {@code initialized} once the event stream is answered, at once if none was asked for. */
    Mono<Void> beforeInitialized(Mono<Void> send) {
        if (!requested.get()) {
            return send;
        }
        return Mono.fromFuture(answered).timeout(MAX_WAIT).onErrorResume(e -> Mono.empty()).then(send);
    }

    private <T> HttpResponse.BodyHandler<T> noticed(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        if (!"GET".equals(request.method()) || !requested.compareAndSet(false, true)) {
            return handler;
        }
        return info -> {
            answered.complete(null);
            return handler.apply(info);
        };
    }

    private <T> CompletableFuture<HttpResponse<T>> failedToo(CompletableFuture<HttpResponse<T>> response) {
        return response.whenComplete((r, e) -> {
            if (e != null) {
                answered.complete(null);
            }
        });
    }

    private final class WatchingBuilder implements HttpClient.Builder {
        private final HttpClient.Builder delegate;

        WatchingBuilder(HttpClient.Builder delegate) {
            this.delegate = delegate;
        }

        @Override
        public HttpClient.Builder cookieHandler(CookieHandler cookieHandler) {
            delegate.cookieHandler(cookieHandler);
            return this;
        }

        @Override
        public HttpClient.Builder connectTimeout(Duration duration) {
            delegate.connectTimeout(duration);
            return this;
        }

        @Override
        public HttpClient.Builder sslContext(SSLContext sslContext) {
            delegate.sslContext(sslContext);
            return this;
        }

        @Override
        public HttpClient.Builder sslParameters(SSLParameters sslParameters) {
            delegate.sslParameters(sslParameters);
            return this;
        }

        @Override
        public HttpClient.Builder executor(Executor executor) {
            delegate.executor(executor);
            return this;
        }

        @Override
        public HttpClient.Builder followRedirects(HttpClient.Redirect policy) {
            delegate.followRedirects(policy);
            return this;
        }

        @Override
        public HttpClient.Builder version(HttpClient.Version version) {
            delegate.version(version);
            return this;
        }

        @Override
        public HttpClient.Builder priority(int priority) {
            delegate.priority(priority);
            return this;
        }

        @Override
        public HttpClient.Builder proxy(ProxySelector proxySelector) {
            delegate.proxy(proxySelector);
            return this;
        }

        @Override
        public HttpClient.Builder authenticator(Authenticator authenticator) {
            delegate.authenticator(authenticator);
            return this;
        }

        @Override
        public HttpClient build() {
            return new WatchedClient(delegate.build());
        }
    }

    private final class WatchedClient extends HttpClient {
        private final HttpClient delegate;

        WatchedClient(HttpClient delegate) {
            this.delegate = delegate;
        }

        @Override
        public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
                throws IOException, InterruptedException {
            try {
                return delegate.send(request, noticed(request, handler));
            } catch (IOException | InterruptedException | RuntimeException e) {
                answered.complete(null);
                throw e;
            }
        }

        @Override
        public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
            return failedToo(delegate.sendAsync(request, noticed(request, handler)));
        }

        @Override
        public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
                                                                HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
            return failedToo(delegate.sendAsync(request, noticed(request, handler), pushPromiseHandler));
        }

        @Override
        public Optional<CookieHandler> cookieHandler() {
            return delegate.cookieHandler();
        }

        @Override
        public Optional<Duration> connectTimeout() {
            return delegate.connectTimeout();
        }

        @Override
        public Redirect followRedirects() {
            return delegate.followRedirects();
        }

        @Override
        public Optional<ProxySelector> proxy() {
            return delegate.proxy();
        }

        @Override
        public SSLContext sslContext() {
            return delegate.sslContext();
        }

        @Override
        public SSLParameters sslParameters() {
            return delegate.sslParameters();
        }

        @Override
        public Optional<Authenticator> authenticator() {
            return delegate.authenticator();
        }

        @Override
        public Version version() {
            return delegate.version();
        }

        @Override
        public Optional<Executor> executor() {
            return delegate.executor();
        }

        @Override
        public WebSocket.Builder newWebSocketBuilder() {
            return delegate.newWebSocketBuilder();
        }
    }
}
