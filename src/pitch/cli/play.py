"""``pitch play`` (a game against bots in the terminal) and ``pitch replay``."""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress

from pitch import fastcore
from pitch.bots.analysis import GameAnalysis
from pitch.bots.analysis import analyze as analyze_game
from pitch.cli.options import RuleOption, rules_from_options
from pitch.engine import PitchError, RecordError, read_records
from pitch.i18n import LANGUAGES, _, set_language
from pitch.tui.app import Terminal, run
from pitch.tui.cards import can_show_symbols
from pitch.tui.replay import run_replay
from pitch.tui.session import Session, bot_levels, default_level


def register(app: typer.Typer) -> None:
    app.command("play")(play)
    app.command("replay")(replay)


def _language(lang: str | None) -> str:
    try:
        return set_language(lang)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--lang") from None


def _console(ascii_cards: bool) -> tuple[Console, bool]:
    """A console, and whether to draw suit symbols and box lines. A terminal whose
    encoding lacks them gets plain letters, ASCII boxes, and '?' for any other
    character it cannot show, never a crash."""
    fits = can_show_symbols(getattr(sys.stdout, "encoding", None))
    if not fits and isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="replace")
    console = Console(highlight=False)
    return console, fits and not ascii_cards


def analyzed(record: dict[str, Any], game: int, seed: int) -> GameAnalysis:
    """``pitch analyze``'s analysis of the game at its default budget, with a progress
    bar on a terminal (raises ``PitchError`` for a refused record)."""
    err = Console(stderr=True, highlight=False)
    with Progress(console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("analysis", total=None)
        return analyze_game(
            record,
            game=game,
            seed=seed,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )


def play(
    players: Annotated[int, typer.Option(min=2, max=7, help="Players (2-7).")] = 4,
    partnerships: Annotated[bool, typer.Option(help="Partners: seats 0+2 vs 1+3.")] = False,
    target: Annotated[int, typer.Option(min=1, help="Points to win (7, 11, 15, 21...).")] = 7,
    preset: Annotated[
        str | None, typer.Option(help="Named rules preset with house rules (docs/rules.md).")
    ] = None,
    rule: RuleOption = None,
    level: Annotated[
        str | None,
        typer.Option(help="Bot level for every bot: beginner, club, expert, master or a bot name."),
    ] = None,
    bots: Annotated[
        str | None, typer.Option(help="One level per bot seat, comma-separated (club,expert).")
    ] = None,
    seat: Annotated[int, typer.Option(min=0, max=6, help="Your seat (0 = first).")] = 0,
    name: Annotated[str | None, typer.Option(help="Your name at the table.")] = None,
    lang: Annotated[
        str | None,
        typer.Option(help=f"Language: {', '.join(LANGUAGES)} (default: from the locale)."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed: the same seed, the same deals.")] = None,
    resume: Annotated[
        Path | None, typer.Option(help="Continue a saved game.", dir_okay=False)
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(help="Where to save the game (default: pitch-DATE-TIME.jsonl here)."),
    ] = None,
    delay: Annotated[
        float,
        typer.Option(min=0.0, max=60.0, help="Seconds between the bots' plays (Enter skips)."),
    ] = 0.6,
    fast: Annotated[bool, typer.Option(help="No pause between the bots' plays.")] = False,
    ascii_cards: Annotated[
        bool, typer.Option("--ascii", help="Plain letters (Ah) instead of suit symbols.")
    ] = False,
) -> None:
    """Play Pitch against bots in the terminal. Ctrl-C saves the game."""
    if resume is not None:
        try:
            session, saved_lang = Session.resume(resume)
        except (RecordError, OSError) as e:
            raise typer.BadParameter(str(e), param_hint="--resume") from None
        _language(lang or saved_lang)
        save_path = save or resume
    else:
        _language(lang)
        rules = rules_from_options(players, partnerships, target, preset, rule)
        if seat >= rules.players:
            raise typer.BadParameter(
                f"seats are 0..{rules.players - 1} with {rules.players} players",
                param_hint="--seat",
            )
        if level is None and bots is None:
            _chosen, note = default_level()
            if note is not None:
                typer.echo(
                    _("Bot level 'club' is not installed; the bots play as '{level}'.").format(
                        level=note
                    )
                )
        try:
            levels = bot_levels(level, bots, rules.players, seat)
        except ValueError as e:
            raise typer.BadParameter(str(e), param_hint="--bots/--level") from None
        session = Session.new(rules, human=seat, name=name, levels=levels, seed=seed)
        save_path = save or Path(time.strftime("pitch-%Y%m%d-%H%M%S.jsonl"))
    if not save_path.parent.is_dir():
        raise typer.BadParameter(
            f"no folder {save_path.parent} to save the game in", param_hint="--save"
        )
    if any(spec is not None for spec in session.specs):
        fastcore.warm_up_noticed(
            lambda: typer.echo(_("Preparing the bots (first run only; up to a minute)..."))
        )
    console, symbols = _console(ascii_cards)
    terminal = Terminal(console, delay=0.0 if fast else delay)
    if session.over:
        typer.echo(
            _("This game is over; watch it with: pitch replay {path}").format(path=save_path)
        )
        raise typer.Exit(0)
    code = run(session, terminal, save_path, symbols=symbols)
    raise typer.Exit(0 if code == 0 else 130)


def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON or JSON Lines).")],
    game: Annotated[int, typer.Option(min=0, help="Which game in the file (0 = first).")] = 0,
    lang: Annotated[
        str | None,
        typer.Option(help=f"Language: {', '.join(LANGUAGES)} (default: from the locale)."),
    ] = None,
    ascii_cards: Annotated[
        bool, typer.Option("--ascii", help="Plain letters (Ah) instead of suit symbols.")
    ] = False,
    analyze: Annotated[
        bool,
        typer.Option(
            "--analyze",
            help="Mark each inaccuracy (?!), mistake (?) and blunder (??): "
            "the figures of pitch analyze, same seed.",
        ),
    ] = False,
    seed: Annotated[int, typer.Option(help="The analysis's seed (with --analyze).")] = 0,
) -> None:
    """Step through a recorded game, hand by hand and trick by trick."""
    _language(lang)
    try:
        records = read_records(file)
    except (RecordError, OSError) as e:
        raise typer.BadParameter(str(e), param_hint="FILE") from None
    if not 0 <= game < len(records):
        raise typer.BadParameter(
            f"{file} holds {len(records)} game(s); --game must be 0..{len(records) - 1}",
            param_hint="--game",
        )
    console, symbols = _console(ascii_cards)
    terminal = Terminal(console, delay=0.0, clear=sys.stdin.isatty())
    try:
        analysis = analyzed(records[game], game, seed) if analyze else None
        run_replay(records[game], terminal, symbols=symbols, analysis=analysis)
    except PitchError as e:
        typer.echo(f"{file}, game {game}: {e}", err=True)
        raise typer.Exit(1) from None
