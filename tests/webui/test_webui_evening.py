"""The evening through the API: games one after another, who owes whom, undo, exports, import."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from conftest import WITH_PIN, play

THREE = ["Anna", "Bruno", "Carla"]


def short_game(client: FlaskClient, losers: tuple[str, str]) -> None:
    """Two hands of one life each: `losers[0]` pays the first, `losers[1]` the second."""
    for loser, codes in zip(losers, (["5C", "6S"], ["4C"])):
        state = client.get("/api/state").get_json()
        others = iter(codes)
        cards = {p: ("2D" if loser == p else next(others)) for p in state["alive"]}
        if len(state["alive"]) == 2:
            cards = {p: ("3D" if loser == p else "4C") for p in state["alive"]}
        play(client, [{"kind": "deal", "cards": cards}])
        while (state := client.get("/api/state").get_json())["phase"] == "turns":
            play(client, [{"kind": "keep", "player": state["current_player"]}])
        play(client, [{"kind": "reveal", "cards": cards}])
        if client.get("/api/state").get_json()["phase"] == "dealer":
            play(client, [{"kind": "keep", "player": state["dealer"]}])
        play(client, [{"kind": "settle"}])


def evening(client: FlaskClient, language: str = "it") -> dict:
    answer = client.get(f"/api/evening?lang={language}")
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def three_games(client: FlaskClient) -> None:
    """Carla, then Anna, then Bruno win; the stake goes from 0,50 € to 1 € for the third."""
    answer = client.post("/api/setup", json={"players": THREE, "dealer": "Carla", "lives": 1,
                                             "stake": 0.5}, headers=WITH_PIN)
    assert answer.status_code == 200
    short_game(client, ("Anna", "Bruno"))
    assert client.post("/api/evening/next", json={}, headers=WITH_PIN).status_code == 200
    short_game(client, ("Bruno", "Carla"))
    assert client.post("/api/evening/stake", json={"stake": 1}, headers=WITH_PIN).status_code == 200
    assert client.post("/api/evening/next", json={}, headers=WITH_PIN).status_code == 200
    short_game(client, ("Carla", "Anna"))


def test_three_games_make_an_evening_with_its_nets_and_payments(client: FlaskClient) -> None:
    three_games(client)
    found = evening(client)
    assert [(g["winner"], g["stake"]) for g in found["games"]] == [
        ("Carla", 0.5), ("Anna", 0.5), ("Bruno", 1.0)]
    assert {row["player"]: row["cents"] for row in found["net"]} == {
        "Bruno": 100, "Anna": -50, "Carla": -50}
    assert [p["text"] for p in found["payments"]] == ["Anna dà 0,50 € a Bruno",
                                                          "Carla dà 0,50 € a Bruno"]
    english = evening(client, "en")
    assert [p["text"] for p in english["payments"]][0] == "Anna gives Bruno €0.50"
    assert english["games"][0]["text"] == "Game 1: Carla wins (pot 2, stake €0.50)"
    assert found["games"][0]["text"] == "Partita 1: vince Carla (piatto 2, posta 0,50 €)"


def test_the_next_game_is_dealt_by_the_player_the_deal_passes_to(client: FlaskClient) -> None:
    client.post("/api/setup", json={"players": THREE, "dealer": "Carla", "lives": 1},
                headers=WITH_PIN)
    short_game(client, ("Anna", "Bruno"))  # Bruno deals the second hand, the last
    assert evening(client)["next_dealer"] == "Carla"
    client.post("/api/evening/next", json={"players": ["Bruno", "Dario", "Carla"]},
                headers=WITH_PIN)
    state = client.get("/api/state").get_json()  # Dario now sits at Bruno's right
    assert state["players"] == ["Bruno", "Dario", "Carla"] and state["dealer"] == "Dario"


def test_a_game_not_over_is_left_only_when_asked(client: FlaskClient) -> None:
    client.post("/api/setup", json={"players": THREE, "dealer": "Carla", "lives": 1,
                                    "stake": 0.5}, headers=WITH_PIN)
    answer = client.post("/api/evening/next", json={}, headers=WITH_PIN)
    assert answer.status_code == 409 and "non è ancora finita" in answer.get_json()["error"]
    assert client.post("/api/evening/next", json={"anyway": True},
                       headers=WITH_PIN).status_code == 200
    games = evening(client)["games"]
    assert [g["over"] for g in games] == [False, False]
    assert games[0]["text"].startswith("Partita 1: in corso")


def test_an_undone_hand_changes_the_sums_at_once(client: FlaskClient) -> None:
    three_games(client)
    before = evening(client)["version"]
    assert client.post("/api/undo", headers=WITH_PIN).status_code == 200  # the last settle
    found = evening(client)
    assert found["version"] > before and not found["over"]
    assert found["games"][-1]["winner"] is None
    assert {row["player"]: row["cents"] for row in found["net"]} == {  # games 1 and 2 alone
        "Anna": 50, "Bruno": -100, "Carla": 50}
    assert [p["text"] for p in found["payments"]] == ["Bruno dà 0,50 € ad Anna",
                                                          "Bruno dà 0,50 € a Carla"]


def test_a_stake_change_applies_from_the_next_game(client: FlaskClient) -> None:
    client.post("/api/setup", json={"players": THREE, "dealer": "Carla", "lives": 1,
                                    "stake": 0.5}, headers=WITH_PIN)
    assert client.post("/api/evening/stake", json={"stake": 2},
                       headers=WITH_PIN).status_code == 200
    assert client.get("/api/state").get_json()["stake"] == 0.5
    short_game(client, ("Anna", "Bruno"))
    assert evening(client)["games"][0]["net"] == {"Anna": -50, "Bruno": -50, "Carla": 100}
    answer = client.post("/api/evening/stake", json={"stake": "tanti"}, headers=WITH_PIN)
    assert answer.status_code == 400 and "posta" in answer.get_json()["error"]


def test_the_chart_draws_each_players_lives_hand_by_hand(client: FlaskClient) -> None:
    client.post("/api/setup", json={"players": THREE, "dealer": "Carla", "lives": 1},
                headers=WITH_PIN)
    short_game(client, ("Anna", "Bruno"))
    svg = client.get("/serata/chart.svg").get_data(as_text=True)
    assert re.findall(r'data-player="(\w+)" data-lives="([\d,]+)"', svg) == [
        ("Anna", "1,0,0"), ("Bruno", "1,1,0"), ("Carla", "1,1,1")]
    picture = client.get("/serata/picture.svg?lang=it").get_data(as_text=True)
    assert "Anna dà 0,50 € a Carla" not in picture  # no stake: nobody owes anything
    assert "Nessuno deve niente" in picture


def test_the_evening_exported_comes_back_whole(client: FlaskClient) -> None:
    three_games(client)
    exported = client.get("/api/evening/export")
    assert "attachment" in exported.headers["Content-Disposition"]
    data = exported.get_json()
    assert data["net"] == {"Bruno": 1.0, "Anna": -0.5, "Carla": -0.5}
    before = evening(client)
    assert client.post("/api/evening", json=data, headers=WITH_PIN).status_code == 200
    after = evening(client)
    for key in ("games", "net", "payments"):
        assert after[key] == before[key], key


def test_an_imported_evening_that_does_not_add_up_is_refused_naming_the_game(
        client: FlaskClient) -> None:
    three_games(client)
    data = client.get("/api/evening/export").get_json()
    data["games"][1]["net"]["Anna"] = 2.0
    answer = client.post("/api/evening", json=data, headers=WITH_PIN)
    assert answer.status_code == 400
    assert answer.get_json()["error"] == ("la partita 2 non torna: per Anna dice 2.0 €, le "
                                             "mani danno 1 €")
    data["games"][1]["net"]["Anna"] = 1.0
    data["games"][2]["record"]["hands"][0]["turns"] = {"Anna": "draw"}
    answer = client.post("/api/evening", json=data, headers=WITH_PIN)
    assert answer.status_code == 400
    assert answer.get_json()["error"] == ("partita 3, mano 1: Anna non può pescare: pesca solo "
                                             "il mazziere")
    assert len(evening(client)["games"]) == 3  # nothing of the evening in play was touched


def test_the_offline_page_holds_everything_it_shows(client: FlaskClient) -> None:
    three_games(client)
    html = client.get("/serata/export.html?lang=it").get_data(as_text=True)
    assert "Bruno dà" not in html and "Anna dà 0,50 € a Bruno" in html
    assert "<svg" in html and 'id="saltacavallo-evening"' in html
    assert not re.search(r'(src|href)="(https?:)?//', html)  # nothing from outside
    assert "<link" not in html and "<script src" not in html
