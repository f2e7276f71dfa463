package io.antrean.client.cli;

import io.antrean.proto.v1.Schedule;
import io.antrean.proto.v1.ScheduleDefinition;
import java.io.PrintWriter;
import java.util.List;

/** Schedules as text for the terminal. */
final class ScheduleText {
  private ScheduleText() {}

  /** When a schedule is due: its cron and zone, or its interval. */
  static String recurrence(ScheduleDefinition d) {
    return d.getCron().isEmpty()
        ? "every " + JobText.duration(d.getInterval())
        : "cron '" + d.getCron() + "' " + d.getTimeZone();
  }

  static void table(List<Schedule> schedules, PrintWriter out) {
    if (schedules.isEmpty()) {
      out.println("no schedules");
      return;
    }
    TextTable table =
        new TextTable(
            "SCHEDULE", "WHEN", "JOB", "PAUSED", "NEXT FIRE", "LAST FIRE", "FIRES", "MISSES");
    for (Schedule s : schedules) {
      ScheduleDefinition d = s.getDefinition();
      table.add(
          d.getName(),
          recurrence(d),
          d.getTemplate().getQueue() + "/" + d.getTemplate().getType(),
          s.getPaused() ? JobText.instant(s.getPausedAt()) : "no",
          JobText.instant(s.getNextFireAt()),
          s.hasLastFireAt() ? JobText.instant(s.getLastFireAt()) : "-",
          s.getFires(),
          s.getMisses());
    }
    table.print(out);
  }

  static void describe(Schedule s, PrintWriter out) {
    ScheduleDefinition d = s.getDefinition();
    out.println("schedule " + d.getName() + ": " + recurrence(d));
    out.println("  job: " + d.getTemplate().getType() + " in queue " + d.getTemplate().getQueue());
    out.println(
        "  misfire: "
            + d.getMisfirePolicy().name().replace("MISFIRE_POLICY_", "").toLowerCase()
            + ", overlap: "
            + d.getOverlapPolicy().name().replace("OVERLAP_POLICY_", "").toLowerCase());
    out.println("  paused: " + (s.getPaused() ? JobText.instant(s.getPausedAt()) : "no"));
    if (s.hasLastFireAt()) {
      out.println(
          "  last fire: "
              + JobText.instant(s.getLastFireAt())
              + " (job "
              + s.getLastJobId()
              + ", "
              + JobText.state(s.getLastJobState())
              + ")");
    }
    out.println("  fires: " + s.getFires() + ", misses: " + s.getMisses());
    out.println("  next fires:");
    s.getUpcomingList().forEach(t -> out.println("    " + JobText.instant(t)));
  }
}
