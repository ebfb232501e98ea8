"""The program language: parse and validate LLM-written programs, interpret them under budgets, trace them."""

from tango.programs.errors import ProgramError, ProgramRuntimeError
from tango.programs.interpreter import Interpreter, RunResult, StopReason
from tango.programs.parser import Program, extract_program_text, parse
from tango.trace.budget import Budget, BudgetExhausted
from tango.trace.writer import Trace, summarize

__all__ = [
    "Budget",
    "BudgetExhausted",
    "Interpreter",
    "Program",
    "ProgramError",
    "ProgramRuntimeError",
    "RunResult",
    "StopReason",
    "Trace",
    "extract_program_text",
    "parse",
    "summarize",
]
