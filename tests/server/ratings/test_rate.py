"""Who a finished game rates as what, and how (``pitch.server.ratings.rate``): pure,
no database."""

from __future__ import annotations

from pitch.engine import Rules
from pitch.server.ratings.rate import Current, rate_game
from pitch.server.ratings.scale import BOT_RATINGS, bot_mu, shown
from pitch.server.tables.events import FinishedSeat, GameFinished, table_kind


def _game(
    rules: Rules,
    scores: tuple[int, ...],
    winners: tuple[int, ...],
    *,
    bots: dict[int, str] | None = None,
    left: tuple[int, ...] = (),
    late: tuple[int, ...] = (),
) -> GameFinished:
    bots = bots or {}
    seats = tuple(
        FinishedSeat(
            seat=i,
            side=rules.side_of(i),
            human=i not in bots or i in left,
            name=None if i in bots and i not in left else f"p{i}",
            bot=bots.get(i),
            left=i in left,
            late=i in late,
        )
        for i in range(rules.players)
    )
    return GameFinished(
        table_id="t",
        rules=rules,
        kind=table_kind(rules.players, rules.partnerships),
        rated=True,
        seats=seats,
        sides=rules.sides,
        scores=scores,
        winners=winners,
        resigned=None,
    )


def _after(game: GameFinished, accounts: dict[int, int]) -> dict[int, int]:
    out = rate_game(game, accounts, {})
    return {c.account_id: shown(c.after.mu) for c in out.changes}


def test_heads_up_the_winner_goes_up_and_the_loser_down() -> None:
    out = rate_game(_game(Rules(players=2), (7, 3), (0,)), {0: 10, 1: 11}, {})
    by = {c.account_id: c for c in out.changes}
    assert by[10].outcome == "win" and by[11].outcome == "loss"
    assert shown(by[10].after.mu) > 1500 > shown(by[11].after.mu)
    assert by[10].after.sigma < by[10].before.sigma  # one game more is known of them


def test_solo_players_are_placed_by_their_final_scores() -> None:
    # Seat 2 won; seats 0 and 3 tied on 4 points; seat 1 last.
    game = _game(Rules(players=4), (4, -2, 7, 4), (2,))
    after = _after(game, {0: 1, 1: 2, 2: 3, 3: 4})
    assert after[3] > after[1] == after[4] > after[2]
    places = {s["seat"]: s["place"] for s in rate_game(game, {}, {}).result["seats"]}
    assert places == {0: 1, 1: 2, 2: 0, 3: 1}


def test_the_winner_comes_first_even_on_fewer_points() -> None:
    # R6: the pitcher's side goes out first, even if another side passed the target too.
    after = _after(_game(Rules(players=3), (7, 9, 0), (0,)), {0: 1, 1: 2, 2: 3})
    assert after[1] > after[2] > after[3]


def test_partners_share_their_sides_result() -> None:
    game = _game(Rules(partnerships=True), (7, 2), (0,))
    after = _after(game, {0: 1, 1: 2, 2: 3, 3: 4})
    assert after[1] == after[3] > 1500 > after[2] == after[4]


def test_a_player_who_left_loses_though_the_stand_in_won() -> None:
    # Seat 2 resigned; the stand-in bot finished the game, and the side won: the partner
    # wins, the player who left loses, and the record says they left.
    game = _game(Rules(partnerships=True), (7, 2), (0,), bots={2: "random"}, left=(2,))
    out = rate_game(game, {0: 1, 1: 2, 2: 3, 3: 4}, {})
    by = {c.account_id: c for c in out.changes}
    assert by[1].outcome == "win" and by[3].outcome == "loss" and by[3].left
    assert shown(by[3].after.mu) < 1500 < shown(by[1].after.mu)
    assert out.result["seats"][2]["left"] is True


def test_a_player_who_left_a_solo_game_is_placed_last() -> None:
    game = _game(Rules(players=3), (8, 2, 7), (0,), bots={0: "random"}, left=(0,))
    out = rate_game(game, {0: 1, 1: 2, 2: 3}, {})
    assert {s["seat"]: s["place"] for s in out.result["seats"]} == {0: 2, 1: 1, 2: 0}
    assert [c.outcome for c in out.changes] == ["loss", "loss", "loss"]


def test_bots_are_fixed_anchors_and_guests_count_as_newcomers() -> None:
    # Seat 1 a master bot, seat 2 a guest (no account): neither is changed.
    rules = Rules(players=3)
    game = _game(rules, (7, 3, 1), (0,), bots={1: "pimc:time=1.0"})
    out = rate_game(game, {0: 5}, {})
    assert [c.account_id for c in out.changes] == [5]
    seats = out.result["seats"]
    assert seats[1]["bot"] == "master" and seats[2]["not_rated"] == "guest"
    # Beating the master bot is worth more than beating the beginner.
    weak = rate_game(_game(rules, (7, 3, 1), (0,), bots={1: "random"}), {0: 5}, {})
    assert out.changes[0].after.mu > weak.changes[0].after.mu
    assert bot_mu("club") == 25.0 and shown(bot_mu("master")) == BOT_RATINGS["master"]


def test_a_late_joiner_and_an_account_at_two_seats_are_not_rated() -> None:
    # A stranger who took over a winning bot's seat late gains nothing; one account
    # at two seats of one game is not rated at either.
    rules = Rules(players=3)
    game = _game(rules, (7, 3, 1), (0,), bots={0: "heuristic"}, late=(0,))
    out = rate_game(game, {0: 1, 1: 2, 2: 2}, {})
    assert out.changes == ()
    seats = out.result["seats"]
    assert seats[0]["not_rated"] == "joined late" and seats[0]["bot"] == "club"
    assert seats[1]["not_rated"] == seats[2]["not_rated"] == "account at two seats"


def test_a_game_stopped_at_the_hand_limit_is_a_draw_by_score() -> None:
    out = rate_game(_game(Rules(players=2), (5, 5), ()), {0: 1, 1: 2}, {})
    assert [c.outcome for c in out.changes] == ["draw", "draw"]
    assert out.changes[0].after.mu == out.changes[1].after.mu == 25.0


def test_an_established_rating_moves_less() -> None:
    game = _game(Rules(players=2), (7, 3), (0,))
    sure = rate_game(game, {0: 1, 1: 2}, {1: Current(25.0, 2.0)}).changes[0]
    new = rate_game(game, {0: 1, 1: 2}, {}).changes[0]
    assert 0 < sure.after.mu - sure.before.mu < new.after.mu - new.before.mu
