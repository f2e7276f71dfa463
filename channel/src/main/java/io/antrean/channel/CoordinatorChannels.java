package io.antrean.channel;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.NameResolverRegistry;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Opens the gRPC channel a client or worker uses to reach its coordinators, which may be one or
 * many: coordinators are stateless on PostgreSQL, so any of them serves any call.
 *
 * <p>A target is written as one of:
 *
 * <ul>
 *   <li>{@code host:port}, for example {@code 127.0.0.1:7400}; every address the name resolves to
 *       is used;
 *   <li>a comma-separated list, {@code coord-a:7400,coord-b:7400,[fd00::3]:7400}; blanks around the
 *       commas are ignored, and each name is resolved to all its addresses;
 *   <li>any target gRPC has a resolver for, typically {@code dns:///coordinators.internal:7400}
 *       where one name has an address per coordinator.
 * </ul>
 *
 * <p>The channel balances calls round-robin over every healthy address, checks health through
 * {@code grpc.health.v1} (a coordinator reporting NOT_SERVING, as one does while it drains, gets no
 * new calls), and retries a call that failed with {@code UNAVAILABLE}, and no other code, up to 5
 * attempts with exponential backoff from 0.1 s to 2 s; each attempt is balanced anew, so a
 * coordinator that went away is failed over. Since every Lease long-poll is a call of its own, a
 * worker's successive long-polls rotate over the coordinators too.
 *
 * <p>A retried call may have reached a coordinator that failed before answering; calls that must
 * not run twice carry an idempotency key or a fencing token, as the Antrean protocol's do.
 *
 * <p>Keepalive pings go every 30 s while calls are open (none on an idle channel), so a long-poll
 * on a dead connection fails within about 40 s instead of waiting for its deadline.
 *
 * <p>Answers of any size are read, not only gRPC's default 4 MiB: a coordinator's answers are
 * bounded by its own limits, and a Lease or CompleteBatch answer with the jobs a worker asked for
 * carries their payloads (up to 1 MiB each by default), so 50 jobs of 100 KiB already pass 4 MiB. A
 * client refusing such an answer would leave the jobs in it leased to nobody until their leases
 * expire, and then again.
 *
 * <p>The channel is plaintext unless {@link Builder#security} asks for TLS, a client certificate or
 * a bearer token. Nothing here changes gRPC's global registries. Thread-safe.
 */
public final class CoordinatorChannels {
  /** How often an open connection with calls in flight is pinged. */
  public static final Duration KEEPALIVE_TIME = Duration.ofSeconds(30);

  /** How long a keepalive ping may go unanswered before the connection is given up. */
  public static final Duration KEEPALIVE_TIMEOUT = Duration.ofSeconds(10);

  /**
   * The longest request a client sends as a message of a stream (Produce, Work); a longer one goes
   * as its own call. A message past the coordinator's request limit ({@code
   * --grpc-max-message-size}, 4 MiB by default) ends the stream it came on, failing every other
   * request waiting there, where a call past it fails alone. A request this long carries enough
   * bytes that a call of its own costs little more.
   */
  public static final int MAX_STREAM_REQUEST_BYTES = 1 << 20;

  /** The largest answer a channel reads: no limit of its own (see the class comment). */
  private static final int MAX_ANSWER_BYTES = Integer.MAX_VALUE;

  private CoordinatorChannels() {}

  /**
   * Opens a channel to {@code targets}; it connects lazily. The caller owns it and shuts it down.
   *
   * @param targets {@code HOST:PORT}, a comma-separated list of them, or {@code dns:///name:port}
   * @return a new channel
   * @throws IllegalArgumentException if {@code targets} is blank or malformed; the message names
   *     the bad entry
   */
  public static ManagedChannel open(String targets) {
    return forTargets(targets).build();
  }

  /**
   * Validates {@code targets} now and returns a builder for channels to them.
   *
   * @param targets {@code HOST:PORT}, a comma-separated list of them, or {@code dns:///name:port}
   * @return a builder; {@link Builder#build()} opens the channel
   * @throws IllegalArgumentException if {@code targets} is blank or malformed; the message names
   *     the bad entry
   */
  public static Builder forTargets(String targets) {
    Objects.requireNonNull(targets, "targets");
    return new Builder(targets.strip(), ChannelTarget.parse(targets));
  }

  /** Options for a coordinator channel. Not thread-safe; {@link #build()} may be called again. */
  public static final class Builder {
    private final String targets;
    private final ChannelTarget target;
    private String userAgent;
    private ChannelSecurity security = ChannelSecurity.none();

    private Builder(String targets, ChannelTarget target) {
      this.targets = targets;
      this.target = target;
    }

    /**
     * The targets as the caller wrote them, stripped; handy for logs.
     *
     * @return the targets
     */
    public String targets() {
      return targets;
    }

    /**
     * The user agent the channel sends ahead of gRPC's own; none by default.
     *
     * @param userAgent for example {@code "antrean-worker"}
     * @return this builder
     */
    public Builder userAgent(String userAgent) {
      this.userAgent = Objects.requireNonNull(userAgent, "userAgent");
      return this;
    }

    /**
     * TLS and the bearer token; none by default (plaintext, no token).
     *
     * @param security how to prove who is calling
     * @return this builder
     */
    public Builder security(ChannelSecurity security) {
      this.security = Objects.requireNonNull(security, "security");
      return this;
    }

    /**
     * Opens the channel; it connects lazily. The caller owns it and shuts it down.
     *
     * @return a new channel
     */
    public ManagedChannel build() {
      ChannelCredentials plaintext = security.channelCredentials();
      ManagedChannelBuilder<?> builder;
      if (target.addressList()) {
        NameResolverRegistry registry = new NameResolverRegistry();
        registry.register(new AddressListResolverProvider());
        builder = Grpc.newChannelBuilder(target.grpcTarget(), plaintext, registry);
      } else {
        builder = Grpc.newChannelBuilder(target.grpcTarget(), plaintext);
      }
      builder
          .defaultServiceConfig(CoordinatorServiceConfig.create())
          // The policies above must hold whatever a DNS TXT record says.
          .disableServiceConfigLookUp()
          .enableRetry()
          .keepAliveTime(KEEPALIVE_TIME.toMillis(), TimeUnit.MILLISECONDS)
          .keepAliveTimeout(KEEPALIVE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .keepAliveWithoutCalls(false)
          .maxInboundMessageSize(MAX_ANSWER_BYTES);
      if (userAgent != null) {
        builder.userAgent(userAgent);
      }
      return builder.build();
    }
  }
}
