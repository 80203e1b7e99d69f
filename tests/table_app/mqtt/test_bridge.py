"""The table on a real mosquitto, run with the shipped config, password file and ACL: what
subscribers actually receive, who is kept out, broker restarts, and the command topic."""

from __future__ import annotations

import json
from typing import Any

import paho.mqtt.client as mqtt

from engine import replay
from engine.public import public_state
from table_app.core.service import TableService
from table_app.journal.journal import Journal
from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.local_broker import LocalBroker
from table_app.mqtt.topics import Topics, parse_url
from table_app.present.refusals import refusal
from table_app.present.seat import seat_view
from tests.support.mqtt import (  # noqa: F401  (the fixtures are used by name)
    HAND,
    WAIT,
    Cable,
    Watcher,
    broker_fixture,
    play,
    service_fixture,
    until,
    watchers_fixture,
)


def bridge_for(service: TableService, broker: LocalBroker, table: str, **kw: Any) -> MqttBridge:
    kw.setdefault("max_backoff", 1.0)
    return MqttBridge(service, parse_url(broker.url("service")), Topics("xian", table), **kw).start()


def test_retained_state_and_seat_views_match_the_engine_after_a_hand(broker, service, watchers) -> None:
    t = Topics("xian", "t1")
    live = watchers(broker.url("display"), [f"{t.base}/#"])
    live.wait_subscribed()
    bridge = bridge_for(service, broker, "t1")
    try:
        play(service, HAND)
        assert bridge.wait_idle(WAIT)
        expected = public_state(replay(HAND))
        # a display that connects afterwards gets everything from the retained messages
        late = watchers(broker.url("display"), [f"{t.base}/#"])
        late.wait_json(t.state, lambda s: s == expected)
        assert late.json(t.state) == expected
        assert expected["phase"] == "hand_over" and expected["scores"] == [0, 0, 1, -1]
        for s in range(4):
            view = late.wait_json(t.seat(s))
            assert view == {**seat_view(expected, s), "seq": len(HAND)}
        assert late.wait(lambda: late.latest.get(t.status) == b"online")
        winner = late.json(t.seat(2))
        assert (winner["name"], winner["wind"], winner["score"], winner["rank"], winner["last_delta"]) == \
            ("Cy", "W", 1, 1, 1)
        assert "胡" in winner["prompt"]["zh"] and "won" in winner["prompt"]["en"]
        # the live subscriber saw every event, in order, with its journal seq
        assert live.wait(lambda: len(live.of(t.event)) >= len(HAND))
        events = live.of(t.event)
        assert [e["seq"] for e in events] == list(range(1, len(HAND) + 1))
        assert [e["event"]["type"] for e in events] == [ev["type"] for ev in HAND]
        assert all(e["kind"] == "event" and e["source"] == "test" and e["at"] > 0 for e in events)
        # retained topics were sent retained, the event stream not
        retained = {topic: r for topic, _, r in late.messages}
        assert retained[t.state] and retained[t.seat(0)] and t.event not in retained
    finally:
        bridge.stop()
    # a clean stop says offline itself (the will covers a crash)
    check = watchers(broker.url("display"), [t.status])
    assert check.wait(lambda: check.latest.get(t.status) == b"offline")


def test_undo_is_published_as_an_event_and_a_new_state(broker, service, watchers) -> None:
    t = Topics("xian", "t-undo")
    live = watchers(broker.url("display"), [t.event])
    live.wait_subscribed()
    bridge = bridge_for(service, broker, "t-undo")
    try:
        play(service, HAND[:3])
        assert service.call({"type": "undo"}, timeout=WAIT).ok
        assert bridge.wait_idle(WAIT)
        late = watchers(broker.url("display"), [t.state])
        assert late.wait_json(t.state) == public_state(replay(HAND[:2]))
        assert live.wait(lambda: len(live.of(t.event)) == 4)
        undo = live.of(t.event)[-1]
        assert undo["kind"] == "undo" and undo["event"] is None and undo["undone"] == [3]
    finally:
        bridge.stop()


def test_a_display_user_cannot_publish_state_or_commands(broker, service, watchers) -> None:
    t = Topics("xian", "t2")
    bridge = bridge_for(service, broker, "t2")
    try:
        play(service, HAND[:2])
        assert bridge.wait_idle(WAIT)
        seq_before = service.seq
        ha = watchers(broker.url("homeassistant"), [f"{t.base}/#"])
        ha.wait_json(t.state)
        display = watchers(broker.url("display"), [], protocol=mqtt.MQTTv5)
        assert not display.wait_connected().is_failure
        forged = json.dumps({"phase": "ended", "scores": [99, 0, 0, -99]})
        display.publish(t.state, forged, retain=True)
        display.publish(t.seat(0), forged, retain=True)
        display.publish(t.cmd, json.dumps({**HAND[2], "transaction": "forged"}))
        # a barrier: the broker handled the forged publishes before acknowledging them, so a
        # state the table publishes afterwards arrives after anything they could have caused
        play(service, [HAND[2]])
        ha.wait_json(t.state, lambda s: s["phase"] == "rolling")
        assert forged.encode() not in [p for _, p, _ in ha.messages]
        assert not ha.of(t.cmd_result) and t.cmd not in ha.latest
        assert service.seq == seq_before + 1  # only our own event, not the forged command
        assert bridge.wait_idle(WAIT)  # the seat views acknowledged too (the state alone came first: a race)
        late = watchers(broker.url("display"), [f"{t.base}/#"])
        assert late.wait_json(t.state) == service.public
        assert late.wait_json(t.seat(0))["seq"] == service.seq
    finally:
        bridge.stop()


def test_anonymous_and_wrong_passwords_are_refused(broker, service, watchers) -> None:
    host = f"127.0.0.1:{broker.port}"
    for url in (f"mqtt://{host}", f"mqtt://display:wrong@{host}", f"mqtt://nobody:x@{host}",
                f"mqtt://display:{broker.passwords['remote']}@{host}"):
        for protocol in (mqtt.MQTTv311, mqtt.MQTTv5):
            w = watchers(url, ["#"], protocol=protocol)
            rc = w.wait_connected()
            assert rc.is_failure, (url, protocol, rc)
    # a table given a wrong password plays on, and says so
    t = Topics("xian", "t3")
    bad = MqttBridge(service, parse_url(broker.url("service", password="wrong")), t, max_backoff=0.5).start()
    try:
        play(service, HAND[:3])
        assert not bad.connected and bad.delivered == 0
    finally:
        bad.stop(timeout=1)
    display = watchers(broker.url("display"), [f"{t.base}/#"])
    display.wait_subscribed()
    assert t.state not in display.latest


def test_a_broker_restart_mid_hand_loses_nothing_retained(broker, service, watchers) -> None:
    t = Topics("xian", "t4")
    bridge = bridge_for(service, broker, "t4")
    try:
        play(service, HAND[:6])
        assert bridge.wait_idle(WAIT)
        broker.stop()
        assert until(lambda: not bridge.connected)
        # the table never waits for the broker: every command is answered while it is away
        play(service, HAND[6:12])
        assert not bridge.connected
        broker.start()  # nothing persisted: the table must publish everything again
        assert bridge.wait_idle(WAIT)
        assert bridge.connects == 2
        late = watchers(broker.url("display"), [f"{t.base}/#"])
        assert late.wait_json(t.state, lambda s: s == public_state(replay(HAND[:12])))
        for s in range(4):
            assert late.wait_json(t.seat(s)) == {**seat_view(service.public, s), "seq": 12}
        assert late.wait(lambda: late.latest.get(t.status) == b"online")
        # and play goes on, published live
        play(service, HAND[12:])
        late.wait_json(t.state, lambda s: s["phase"] == "hand_over")
    finally:
        bridge.stop()


def test_events_made_while_the_broker_is_away_are_sent_when_it_returns(broker, service, watchers) -> None:
    t = Topics("xian", "t5")
    cable = Cable(broker.port)  # the table reaches the broker through it; the watcher directly
    url = parse_url(broker.url("service"))
    url = type(url)(url.host, cable.port, url.username, url.password)
    bridge = MqttBridge(service, url, t, ha_prefix=None, max_backoff=0.5).start()
    w = watchers(broker.url("display"), [t.event, t.status])
    w.wait_subscribed()
    try:
        play(service, HAND[:3])
        assert bridge.wait_idle(WAIT)
        cable.unplug()
        assert until(lambda: not bridge.connected)
        # the broker sends the table's will when the connection is cut
        assert w.wait(lambda: w.latest.get(t.status) == b"offline")
        play(service, HAND[3:8])
        cable.plug()
        assert bridge.wait_idle(WAIT)
        assert w.wait(lambda: w.latest.get(t.status) == b"online")
        assert w.wait(lambda: any(e["seq"] == 8 for e in w.of(t.event)))
        seqs = [e["seq"] for e in w.of(t.event)]
        assert sorted(set(seqs)) == list(range(1, 9))  # at least once, every one
        assert [e["seq"] for e in w.of(t.event) if e["seq"] > 3] == list(range(4, 9))
    finally:
        bridge.stop()
        cable.unplug()


def test_an_authorised_command_is_applied_and_answered(broker, service, watchers) -> None:
    t = Topics("xian", "t6")
    bridge = bridge_for(service, broker, "t6")
    try:
        play(service, HAND[:1])
        remote = watchers(broker.url("remote"), [t.cmd_result, t.state])
        remote.wait_subscribed()
        assert bridge.wait_idle(WAIT)
        remote.publish(t.cmd, json.dumps({**HAND[1], "transaction": "t-1"}))
        assert remote.wait(lambda: len(remote.of(t.cmd_result)) == 1)
        answer = remote.of(t.cmd_result)[0]
        assert answer["status"] == "ok" and answer["transaction"] == "t-1"
        assert answer["data"]["seq"] == 2 and answer["data"]["state"]["phase"] == "betting"
        assert service.public == public_state(replay(HAND[:2]))
        remote.wait_json(t.state, lambda s: s["phase"] == "betting")
        # without a transaction the answer says null; a later event works the same way
        remote.publish(t.cmd, json.dumps(HAND[2]))
        assert remote.wait(lambda: len(remote.of(t.cmd_result)) == 2)
        assert remote.of(t.cmd_result)[1]["transaction"] is None
        assert service.seq == 3
    finally:
        bridge.stop()


def test_a_malformed_or_illegal_command_gets_an_error_and_changes_nothing(broker, service, watchers) -> None:
    t = Topics("xian", "t7")
    bridge = bridge_for(service, broker, "t7")
    try:
        play(service, HAND[:3])
        remote = watchers(broker.url("remote"), [t.cmd_result])
        remote.wait_subscribed()
        assert bridge.wait_idle(WAIT)
        before, seq = service.public, service.seq
        bad: list[tuple[bytes | str, Any, str]] = [
            (b"not json", None, "not JSON"),
            (b"\xff\xfe", None, "UTF-8"),
            ("[1, 2]", None, "JSON object"),
            (json.dumps({"type": "discard", "seat": 9, "transaction": 5}), 5, ""),
            (json.dumps({"type": "bogus", "transaction": "x"}), "x", ""),
            (json.dumps({"type": "roll", "dice": [3, 4], "extra": 1, "transaction": "y"}), "y", ""),
            (json.dumps({"type": "pass", "seat": 1, "transaction": [1]}), None, "transaction"),
        ]
        for payload, _, _ in bad:
            remote.publish(t.cmd, payload)
        assert remote.wait(lambda: len(remote.of(t.cmd_result)) == len(bad))
        answers = remote.of(t.cmd_result)
        assert all(a["status"] == "error" and "data" not in a and a["error"] for a in answers), answers
        # answers come as each is ready (bad JSON at once, the rules' refusals from the service)
        assert sorted(map(repr, (a["transaction"] for a in answers))) == sorted(repr(tr) for _, tr, _ in bad)
        errors = " | ".join(a["error"] for a in answers)
        for _, _, words in bad:
            assert words in errors
        assert "unknown" in errors.lower() or "bogus" in errors
        assert service.public == before and service.seq == seq
        # a retained command is never applied (it would be applied again at every reconnect)
        bridge.stop()
        remote.publish(t.cmd, json.dumps(HAND[3]), retain=True)
        bridge = bridge_for(service, broker, "t7")
        assert bridge.wait_idle(WAIT)
        remote.publish(t.cmd, b"", retain=True)  # clears it (retained too: not answered)
        remote.publish(t.cmd, json.dumps({"type": "state", "transaction": "z"}))
        assert remote.wait(lambda: len(remote.of(t.cmd_result)) == len(bad) + 1)
        assert remote.of(t.cmd_result)[-1]["transaction"] == "z"
        assert service.seq == seq
    finally:
        bridge.stop()


def test_home_assistant_discovery_is_retained_and_resent_when_it_comes_online(broker, service, watchers) -> None:
    t = Topics("xian", "t8")
    bridge = bridge_for(service, broker, "t8")
    try:
        play(service, HAND[:5])
        assert bridge.wait_idle(WAIT)
        ha = watchers(broker.url("homeassistant"), ["homeassistant/sensor/xian_t8/+/config"])
        assert ha.wait(lambda: len(ha.latest) == 6)
        configs = {topic.split("/")[3]: json.loads(p) for topic, p in ha.latest.items()}
        assert sorted(configs) == ["drawable", "phase", "score_0", "score_1", "score_2", "score_3"]
        assert {json.dumps(c["device"]) for c in configs.values()} == {json.dumps(configs["phase"]["device"])}
        assert all(c["availability_topic"] == t.status for c in configs.values())
        assert configs["score_2"]["state_topic"] == t.seat(2)
        assert configs["drawable"]["state_topic"] == t.state
        assert configs["drawable"]["value_template"] == "{{ value_json.wall.drawable }}"
        first = len(ha.messages)
        ha.publish("homeassistant/status", "online")
        assert ha.wait(lambda: len(ha.messages) >= first + 6)
        assert {topic for topic, _, _ in ha.messages[first:]} == set(ha.latest)
    finally:
        bridge.stop()


def test_the_will_says_offline_when_the_table_dies(broker, cli, tmp_path, watchers) -> None:
    import os
    import signal
    import subprocess
    import sys

    t = Topics("xian", "t9")
    w = watchers(broker.url("display"), [t.status, t.state])
    w.wait_subscribed()
    proc = subprocess.Popen(
        [sys.executable, "-m", "table_app.cli", "serve", "--db", str(tmp_path / "j.sqlite3"),
         "--mqtt", broker.url("service"), "--table", "t9"],
        cwd=tmp_path, env=dict(os.environ, PYTHONUTF8="1"), stderr=subprocess.PIPE, text=True)
    try:
        assert w.wait(lambda: w.latest.get(t.status) == b"online"), proc.stderr
        assert w.wait_json(t.state)["phase"] == "idle"
        proc.send_signal(signal.SIGKILL)
        proc.wait(WAIT)
        assert w.wait(lambda: w.latest.get(t.status) == b"offline")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()


def test_watcher_sees_the_acl_from_the_shipped_files(broker: LocalBroker) -> None:
    conf = broker.conf.read_text()
    assert "allow_anonymous false" in conf and str(broker.data_dir / "acl") in conf
    assert Watcher  # the helper is real paho, nothing mocked


def test_the_queue_is_bounded_and_the_table_plays_on_while_the_broker_is_away(broker, service, watchers) -> None:
    from table_app.bench.mqtt import next_command

    t = Topics("xian", "t10")
    broker.stop()  # not there when the table starts
    bridge = bridge_for(service, broker, "t10", queue_size=10, ha_prefix=None)
    try:
        play(service, HAND[:5])
        for _ in range(60):
            play(service, [next_command(service.public)])
        assert not bridge.connected and bridge.dropped == 65 - 10
        broker.start()
        assert bridge.wait_idle(WAIT)
        late = watchers(broker.url("display"), [t.state, t.seat(1)])
        assert late.wait_json(t.state, lambda s: s == service.public)
        assert late.wait_json(t.seat(1))["seq"] == 65
    finally:
        bridge.stop()


def test_serve_without_a_broker_says_so_once(cli, tmp_path) -> None:
    conf = tmp_path / "c.toml"
    conf.write_text("")
    proc = cli("serve", "--stdin", "--config", str(conf), "--db", str(tmp_path / "j.sqlite3"),
               input=json.dumps(HAND[0]) + "\n" + json.dumps(HAND[1]) + "\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("without MQTT") == 1
    assert [json.loads(line)["ok"] for line in proc.stdout.splitlines()] == [True, True]
    bad = cli("serve", "--stdin", "--config", str(conf), "--db", str(tmp_path / "j.sqlite3"),
              "--mqtt", "http://nowhere", input="")
    assert bad.returncode == 2 and "mqtt://" in bad.stderr
    bad = cli("serve", "--stdin", "--config", str(conf), "--db", str(tmp_path / "j.sqlite3"),
              "--table", "a/b", input="")
    assert bad.returncode == 2 and "--table" in bad.stderr


def test_one_name_at_two_seats_on_the_command_topic_is_refused_and_not_journaled(broker, service, watchers,
                                                                                tmp_path) -> None:
    """A ``new_session`` from MQTT with 阿强 twice: the engine refuses it (its code and params,
    which a screen words), and the journal stays empty."""
    t = Topics("xian", "t12")
    bridge = bridge_for(service, broker, "t12")
    try:
        remote = watchers(broker.url("remote"), [t.cmd_result])
        remote.wait_subscribed()
        assert bridge.wait_idle(WAIT)
        remote.publish(t.cmd, json.dumps({"type": "new_session", "players": ["阿强", "Bo", "阿强", "Di"], "base": 1,
                                          "transaction": "dup"}))
        assert remote.wait(lambda: len(remote.of(t.cmd_result)) == 1)
        answer = remote.of(t.cmd_result)[0]
        assert answer["status"] == "error" and answer["transaction"] == "dup" and "data" not in answer
        assert answer["code"] == "seat.same_name" and answer["params"] == {"seat": 2, "player": "阿强", "seats": [0, 2]}
        worded = refusal(answer["code"], answer["params"], answer["error"], ["", "", "", ""], "zh")
        assert worded == "两位玩家同名：阿强"
        assert service.seq == 0 and service.public["phase"] == "idle"
    finally:
        bridge.stop()
    with Journal.open(tmp_path / "journal.sqlite3", readonly=True) as journal:
        assert list(journal.records()) == []


def test_a_press_on_the_command_topic_becomes_its_events(broker, watchers, tmp_path) -> None:
    """Phones and remote buttons send presses like the wired ones: the service turns them into
    events; a refused press is answered with the engine's code, and nothing changes. The
    seat views carry the claim window's countdown; the event stream what the engine did."""
    from table_app.core.service import ManualClock
    from table_app.journal.journal import Journal

    t = Topics("xian", "t11")
    journal = Journal.open(tmp_path / "press.sqlite3")
    service = TableService(journal, claim_window_s=3.0, clock=ManualClock()).start()
    bridge = bridge_for(service, broker, "t11", ha_prefix=None)
    try:
        play(service, HAND[:5])  # seat 0 to move
        remote = watchers(broker.url("remote"), [t.cmd_result, t.seat(1), t.seat(0), t.event])
        remote.wait_subscribed()
        assert bridge.wait_idle(WAIT)
        seq = service.seq
        remote.publish(t.cmd, json.dumps({"type": "press", "seat": 2, "button": "TURN", "transaction": 1}))
        assert remote.wait(lambda: len(remote.of(t.cmd_result)) == 1)
        refused = remote.of(t.cmd_result)[0]
        assert refused["status"] == "error" and "seat 2 cannot TURN: it is seat 0's turn" in refused["error"]
        assert refused["code"] == "press.not_turn" and refused["params"]["turn"] == 0 and refused["transaction"] == 1
        assert service.seq == seq
        remote.publish(t.cmd, json.dumps({"type": "press", "seat": 0, "button": "TURN", "transaction": 2}))
        assert remote.wait(lambda: len(remote.of(t.cmd_result)) == 2)
        assert remote.of(t.cmd_result)[1]["status"] == "ok" and service.public["phase"] == "claims"
        view = remote.wait_json(t.seat(1), lambda v: v["seq"] == seq + 1)
        assert view["can_claim"] and 0 < view["claim_left"] <= 3.0  # the service's own window
        assert view["actions"] == ["claim:win", "claim:kong", "claim:pong", "claim:chow", "pass"]
        assert remote.wait_json(t.seat(0), lambda v: v["seq"] == seq + 1)["claim_left"] is None  # the discarder
        event = remote.wait_json(t.event, lambda e: e["seq"] == seq + 1)
        assert event["event"] == {"type": "discard", "seat": 0} and event["source"] == "mqtt press 0:TURN"
        assert event["effects"] == [{"what": "claims_open", "seat": 0, "data": "discard"}]
    finally:
        bridge.stop()
        service.stop()
        journal.close()


def test_a_retained_command_is_never_applied_even_when_delivered_live(broker, service, watchers) -> None:
    """A command published with retain would be applied again at every reconnect: the table
    refuses it live too (issue 16: it used to be applied once when it arrived live)."""
    t = Topics("xian", "t12")
    bridge = bridge_for(service, broker, "t12", ha_prefix=None)
    try:
        play(service, HAND[:1])
        remote = watchers(broker.url("remote"), [t.cmd_result])
        remote.wait_subscribed()
        assert bridge.wait_idle(WAIT)
        seq = service.seq
        remote.publish(t.cmd, json.dumps({**HAND[1], "transaction": "r"}), retain=True)
        remote.publish(t.cmd, json.dumps({"type": "state", "transaction": "after"}))
        assert remote.wait(lambda: any(a["transaction"] == "after" for a in remote.of(t.cmd_result)))
        assert service.seq == seq and service.public["phase"] == "seating"
        remote.publish(t.cmd, b"", retain=True)  # (clears the broker's retained copy)
    finally:
        bridge.stop()
