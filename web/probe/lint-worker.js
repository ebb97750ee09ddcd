// "Read your own traffic"'s Web Worker: mrtr-lint (the codec package's lintTranscript) reads a
// transcript away from the page, so a capture of many megabytes leaves the page answering.
// Message in: {id, text, shown: {operations, tickets, findings}}. Message out: {id, view} or
// {id, error}. The view holds what the page draws (the first few of each, with their counts),
// so what crosses to the page stays small however big the capture.
import init, { lintTranscript } from "../pkg/mrtr_js.js";

const ready = init();

self.onmessage = async ({ data }) => {
  try {
    await ready;
    const report = lintTranscript(String(data.text ?? ""));
    const { shown } = data;
    const lineOf = (index) => report.transcript.messages[index]?.line;
    const asked = [];
    let askedCount = 0;
    report.grouped.operations.forEach((op, o) => {
      if (!(op.rounds.length > 1 || op.rounds.some((r) => r.end.kind === "asked"))) return;
      askedCount += 1;
      if (asked.length < shown.operations) {
        asked.push({ o, words: report.words[o], op: { ...op, rounds: op.rounds.map((r) => ({ ...r, line: lineOf(r.request) })) } });
      }
    });
    const { format, unreadable, skipped, skipped_count } = report.transcript;
    self.postMessage({ id: data.id, view: {
      headline: report.headline, transcript: { format, unreadable, skipped, skipped_count },
      asked, askedCount,
      tickets: report.grouped.tickets.slice(0, shown.tickets), ticketCount: report.grouped.tickets.length,
      findings: report.findings.slice(0, shown.findings), findingCount: report.findings.length,
    } });
  } catch (error) {
    self.postMessage({ id: data.id, error: String(error?.message ?? error) });
  }
};
