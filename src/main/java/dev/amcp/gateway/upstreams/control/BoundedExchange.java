package dev.amcp.gateway.upstreams.control;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One upstream HTTP exchange that ends within the request's timeout, its body included, and reads at most a cap of
 * bytes. The JDK client's own timeout stops at the response headers: an upstream that sent them and then stalled the
 * body held the calling thread until it closed the connection.
 */
public final class BoundedExchange {

    private BoundedExchange() {
    }

    /** The answer: status, headers, and at most {@code maxBytes + 1} bytes of the body (more means it was larger). */
    public static HttpResponse<byte[]> send(HttpClient client, HttpRequest request, long maxBytes) throws IOException, InterruptedException {
        long timeoutMs = request.timeout().orElseThrow(() -> new IllegalStateException("an upstream request needs a timeout")).toMillis();
        CompletableFuture<HttpResponse<byte[]>> pending = client.sendAsync(request, info -> new Capped(maxBytes + 1));
        try {
            return pending.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            pending.cancel(true); // aborts the exchange and its connection
            throw new HttpTimeoutException("the upstream did not finish its answer within " + timeoutMs + " ms");
        } catch (InterruptedException e) {
            pending.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(cause);
        }
    }

    /** Keeps the first {@code limit} bytes of a body, then stops reading it. */
    static final class Capped implements HttpResponse.BodySubscriber<byte[]> {
        private final long limit;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private final CompletableFuture<byte[]> body = new CompletableFuture<>();
        private Flow.Subscription subscription;

        Capped(long limit) {
            this.limit = limit;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) {
                int take = (int) Math.min(buffer.remaining(), limit - kept.size());
                byte[] chunk = new byte[take];
                buffer.get(chunk);
                kept.write(chunk, 0, take);
            }
            if (kept.size() >= limit && !body.isDone()) {
                subscription.cancel();
                body.complete(kept.toByteArray());
            }
        }

        @Override
        public void onError(Throwable error) {
            body.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            body.complete(kept.toByteArray());
        }
    }
}
