// The placeholder `<target>` operand that stands for the server command after `--`.

/** Put by main in place of `<target>` when the command line has `--`; never typed by a person. */
export const COMMAND_TARGET = '<command after -->';
