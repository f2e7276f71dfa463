package io.antrean.worker.examples;

import com.google.protobuf.Struct;
import io.antrean.worker.JobContext;
import io.antrean.worker.JobHandler;
import io.antrean.worker.JobHandlerProvider;
import java.util.concurrent.CancellationException;

/**
 * Example type {@code report.build}: payload {@code {"pages": N, "msPerPage": M}} (3 pages of 50 ms
 * by default). Builds the pages one by one, reporting {@code "page i/N"} as progress after each,
 * and returns {@code {"pages": N}}. Honours cancellation between pages and, through interruption,
 * within one. Stateless and thread-safe.
 */
public final class ReportBuildHandler implements JobHandler, JobHandlerProvider {
  /** The job type this handler serves. */
  public static final String TYPE = "report.build";

  /** Used by {@link java.util.ServiceLoader}. */
  public ReportBuildHandler() {}

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public JobHandler create() {
    return this;
  }

  @Override
  public byte[] handle(JobContext ctx) throws InterruptedException {
    Struct payload = JsonPayload.parse(ctx);
    long pages = JsonPayload.wholeNumber(payload, "pages", 3, 0, 100_000);
    long msPerPage = JsonPayload.wholeNumber(payload, "msPerPage", 50, 0, 600_000);
    for (long page = 1; page <= pages; page++) {
      if (ctx.isCancelled()) {
        throw new CancellationException("report cancelled before page " + page);
      }
      Thread.sleep(msPerPage);
      ctx.progress("page " + page + "/" + pages);
    }
    return JsonPayload.utf8("{\"pages\":" + pages + "}");
  }
}
