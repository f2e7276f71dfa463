package io.antrean.coordinator.store.sqlite.young;

import io.antrean.coordinator.job.DependsOn;
import io.antrean.coordinator.job.NewJob;
import io.antrean.coordinator.job.RetryPolicy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import javax.annotation.Nullable;

/**
 * One change to a young job, as a record of the {@link YoungJobLog}: what a fold or a replay needs
 * to rebuild the job's state. Times are kept to the microsecond, as the stores keep them.
 */
public sealed interface YoungChange {
  /** The job changed. */
  long jobId();

  /** A job stored by a plain Enqueue: its id, what it was enqueued with, and when. */
  record Created(long jobId, NewJob job, Instant now) implements YoungChange {}

  /** A lease granted: the attempt it starts, its holder, token, lease id digest and expiry. */
  record Leased(
      long jobId,
      int attempt,
      String workerId,
      long fencingToken,
      byte[] leaseIdSha256,
      Instant expiresAt,
      Instant now)
      implements YoungChange {}

  /** A lease extended by a heartbeat, with the progress it reported, if any. */
  record Extended(
      long jobId, long fencingToken, Instant expiresAt, @Nullable String progress, Instant now)
      implements YoungChange {}

  /** A job completed by its lease's holder. */
  record Succeeded(
      long jobId,
      long fencingToken,
      @Nullable byte[] result,
      @Nullable String resultContentType,
      Instant now)
      implements YoungChange {}

  /** The record of this change. */
  default byte[] toRecord() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      Codec.write(this, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // from memory only a text too long for writeUTF
    }
    return bytes.toByteArray();
  }

  /**
   * The change a record holds.
   *
   * @throws IllegalStateException if the record is not one {@link #toRecord} made
   */
  static YoungChange fromRecord(byte[] record) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(record))) {
      YoungChange change = Codec.read(in);
      if (in.available() != 0) {
        throw new IllegalStateException("young jobs' log: a record longer than its change");
      }
      return change;
    } catch (IOException e) {
      throw new IllegalStateException("young jobs' log: a record cut short", e);
    }
  }

  /** The encoding, one kind byte then the fields in order. */
  final class Codec {
    private static final byte CREATED = 1;
    private static final byte LEASED = 2;
    private static final byte EXTENDED = 3;
    private static final byte SUCCEEDED = 4;

    private Codec() {}

    static void write(YoungChange change, DataOutputStream out) throws IOException {
      if (change instanceof Created c) {
        out.writeByte(CREATED);
        out.writeLong(c.jobId());
        writeTime(out, c.now());
        NewJob job = c.job();
        out.writeUTF(job.queue());
        out.writeUTF(job.type());
        writeBytes(out, job.payload());
        out.writeUTF(job.contentType());
        out.writeInt(job.priority());
        writeTime(out, job.runAt());
        RetryPolicy policy = job.retryPolicy();
        out.writeInt(policy.maxAttempts());
        writeDuration(out, policy.initialBackoff());
        out.writeDouble(policy.multiplier());
        writeDuration(out, policy.maxBackoff());
        out.writeInt(policy.maxLeaseExpiries());
        writeText(out, job.traceParent());
        writeText(out, job.concurrencyKey());
      } else if (change instanceof Leased l) {
        out.writeByte(LEASED);
        out.writeLong(l.jobId());
        out.writeInt(l.attempt());
        out.writeUTF(l.workerId());
        out.writeLong(l.fencingToken());
        writeBytes(out, l.leaseIdSha256());
        writeTime(out, l.expiresAt());
        writeTime(out, l.now());
      } else if (change instanceof Extended e) {
        out.writeByte(EXTENDED);
        out.writeLong(e.jobId());
        out.writeLong(e.fencingToken());
        writeTime(out, e.expiresAt());
        writeText(out, e.progress());
        writeTime(out, e.now());
      } else if (change instanceof Succeeded s) {
        out.writeByte(SUCCEEDED);
        out.writeLong(s.jobId());
        out.writeLong(s.fencingToken());
        writeBytes(out, s.result());
        writeText(out, s.resultContentType());
        writeTime(out, s.now());
      }
    }

    static YoungChange read(DataInputStream in) throws IOException {
      byte kind = in.readByte();
      switch (kind) {
        case CREATED -> {
          long jobId = in.readLong();
          Instant now = readTime(in);
          String queue = in.readUTF();
          String type = in.readUTF();
          byte[] payload = readBytes(in);
          String contentType = in.readUTF();
          int priority = in.readInt();
          Instant runAt = readTime(in);
          RetryPolicy policy =
              new RetryPolicy(
                  in.readInt(), readDuration(in), in.readDouble(), readDuration(in), in.readInt());
          String traceParent = readText(in);
          String concurrencyKey = readText(in);
          NewJob job =
              new NewJob(
                  queue,
                  type,
                  payload,
                  contentType,
                  priority,
                  runAt,
                  null,
                  null,
                  policy,
                  traceParent,
                  concurrencyKey,
                  null,
                  DependsOn.NONE);
          return new Created(jobId, job, now);
        }
        case LEASED -> {
          return new Leased(
              in.readLong(),
              in.readInt(),
              in.readUTF(),
              in.readLong(),
              readBytes(in),
              readTime(in),
              readTime(in));
        }
        case EXTENDED -> {
          return new Extended(
              in.readLong(), in.readLong(), readTime(in), readText(in), readTime(in));
        }
        case SUCCEEDED -> {
          return new Succeeded(
              in.readLong(), in.readLong(), readBytes(in), readText(in), readTime(in));
        }
        default -> throw new IllegalStateException("young jobs' log: unknown change " + kind);
      }
    }

    private static void writeTime(DataOutputStream out, Instant time) throws IOException {
      out.writeLong(ChronoUnit.MICROS.between(Instant.EPOCH, time));
    }

    private static Instant readTime(DataInputStream in) throws IOException {
      return Instant.EPOCH.plus(in.readLong(), ChronoUnit.MICROS);
    }

    private static void writeDuration(DataOutputStream out, Duration duration) throws IOException {
      out.writeLong(duration.toNanos() / 1_000);
    }

    private static Duration readDuration(DataInputStream in) throws IOException {
      return Duration.of(in.readLong(), ChronoUnit.MICROS);
    }

    /** Bytes, null as length -1. */
    private static void writeBytes(DataOutputStream out, @Nullable byte[] bytes)
        throws IOException {
      if (bytes == null) {
        out.writeInt(-1);
        return;
      }
      out.writeInt(bytes.length);
      out.write(bytes);
    }

    @Nullable
    private static byte[] readBytes(DataInputStream in) throws IOException {
      int length = in.readInt();
      if (length < 0) {
        return null;
      }
      if (length > YoungJobLog.MAX_RECORD_BYTES) {
        throw new IOException("a field of " + length + " bytes");
      }
      byte[] bytes = in.readNBytes(length);
      if (bytes.length != length) {
        throw new IOException("a field cut short");
      }
      return bytes;
    }

    /** Text that may be null, as a presence flag then the text. */
    private static void writeText(DataOutputStream out, @Nullable String text) throws IOException {
      out.writeBoolean(text != null);
      if (text != null) {
        out.writeUTF(text);
      }
    }

    @Nullable
    private static String readText(DataInputStream in) throws IOException {
      return in.readBoolean() ? in.readUTF() : null;
    }
  }
}
