// What becomes of a task whose worker stopped renewing its lease (issue 24, node death): failed,
// saying so, or, for a task whose request may run again (TaskRerun: an idempotent tool) with runs
// left, `working` again for the node that claimed it.

import type { TaskRecord } from 'mcpwire/extensions/tasks';

/** The message of a task failed because its worker stopped renewing its lease. */
export const WORKER_LOST_MESSAGE =
  'The task failed: the node running it stopped (its lease was not renewed); its work is lost';

/** The status message of a task a node claimed to run again after its worker died (an idempotent tool). */
export const RERUN_MESSAGE = 'A run was lost: the node running it stopped; re-running it';

/** A dead worker's task failed; a re-runnable one says how many runs it had. */
export function toLost(record: TaskRecord): TaskRecord {
  const message =
    record.rerun === undefined
      ? WORKER_LOST_MESSAGE
      : `${WORKER_LOST_MESSAGE} (after ${record.rerun.runs} of at most ${record.rerun.maxRuns} runs)`;
  const failed: TaskRecord = {
    ...record,
    status: 'failed',
    statusMessage: message,
    lastUpdatedAt: Date.now(),
    error: { code: -32603, message },
  };
  delete failed.inputRequests;
  delete failed.inputResponses;
  return failed;
}

/** A dead worker's task claimed for its next run: `working` again, saying so. */
export function toRerun(record: TaskRecord): TaskRecord {
  const rerun = { ...record.rerun!, runs: record.rerun!.runs + 1 };
  const next: TaskRecord = {
    ...record,
    status: 'working',
    statusMessage: `${RERUN_MESSAGE} (run ${rerun.runs} of ${rerun.maxRuns})`,
    lastUpdatedAt: Date.now(),
    rerun,
  };
  delete next.inputRequests;
  delete next.inputResponses;
  return next;
}
