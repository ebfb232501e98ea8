"""What an episode spends and records: the step budget every layer charges, and the trace it writes and reads."""
