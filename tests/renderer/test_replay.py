"""The replay animation: one step per move of the record, the final scores shown, an MP4 a phone plays."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import av
import pytest

from engine import PRESETS, Match, RecordError, Rules, write_record
from renderer import RoundResult
from renderer.pictures import draw_result
from renderer.replay import (
    DEAL_SECONDS,
    LAST_EXTRA_SECONDS,
    ROUND_END_SECONDS,
    Step,
    encode_animation,
    move_seconds,
    render_replay,
    steps,
)
from tests.kit.positions import played_out

REPO = Path(__file__).resolve().parents[2]


def shown_frames(mp4: bytes) -> tuple[tuple[int, int], list[float]]:
    """An MP4's size and the time each of its frames is shown at."""
    with av.open(io.BytesIO(mp4)) as container:
        stream = container.streams.video[0]
        return (stream.codec_context.width, stream.codec_context.height), [
            float(frame.time) for frame in container.decode(stream)
        ]


def played(preset: str, seats: int, seed: int = 1) -> Match:
    return played_out(Rules.preset(preset), seats, random.Random(seed))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_one_step_per_move_and_a_pause_at_each_rounds_end(preset: str) -> None:
    seats = Rules.preset(preset).min_seats  # two, or the four of a partnership preset
    game = played(preset, seats)
    said: list[str] = []

    def describe(events: Any, names: Any) -> list[str]:
        words = [f"{names[event.seat]}:{type(event).__name__}" for event in events]
        said.extend(words)
        return words

    frames = steps(write_record(game), ["Ann", "Bob", "Cat", "Dan"][:seats], width=360, describe=describe)
    expected: list[float] = []
    per_move = move_seconds(sum(len(state.plays()) for state in game.rounds))
    for state in game.rounds:
        expected += [DEAL_SECONDS] + [per_move] * len(state.plays()) + [ROUND_END_SECONDS]
    expected[-1] += LAST_EXTRA_SECONDS
    assert [frame.seconds for frame in frames] == expected
    assert len({frame.image.size for frame in frames}) == 1 and frames[0].image.size[1] % 2 == 0
    plays = sum(len(state.plays()) for state in game.rounds)
    assert sum(1 for word in said if word.endswith(":Played")) == plays  # each play told once


def test_the_last_frame_is_the_final_result_with_the_records_final_scores() -> None:
    game = played("fives", 2, seed=4)
    frames = steps(write_record(game), ["Ann", "Bob"], width=360)
    result = draw_result(RoundResult.of_match(game), ["Ann", "Bob"], width=360)  # every hand, the final totals
    assert result.size[1] < frames[-1].image.size[1]
    top = (frames[-1].image.size[1] - round(360 * 0.1) - result.size[1]) // 2
    shown = frames[-1].image.crop((0, top, 360, top + result.size[1]))
    assert shown.tobytes() == result.tobytes()
    assert max(game.scores) >= (game.rules.target(2) or 0)


def test_the_animation_is_an_h264_mp4_with_every_step() -> None:
    game = played("draw", 3, seed=2)
    animation = render_replay(write_record(game), ["Ann", "Bob", "Cat"])
    assert animation.format == "mp4" and animation.mime == "video/mp4"
    with av.open(io.BytesIO(animation.data)) as container:
        stream = container.streams.video[0]
        assert stream.codec_context.name == "h264" and not container.streams.audio
        times = [float(frame.time) for frame in container.decode(stream)]
    assert len(times) == animation.frames + 1  # the last step once more, to hold it
    assert times[-1] == pytest.approx(animation.seconds, abs=0.01)
    assert len(animation.data) < 10 * 1024 * 1024


def test_a_gif_is_sent_where_it_is_smaller() -> None:
    from renderer import palette, theme

    still = palette.canvas((64, 48), theme.FELT)
    animation = encode_animation([Step(still, 1.0), Step(still, 1.0)])
    assert animation.format == "gif" and animation.data.startswith(b"GIF8")


def test_a_broken_record_draws_nothing() -> None:
    record = write_record(played("duel", 2))
    record["rounds"][0]["plays"][0]["tile"] = "9-9"
    with pytest.raises(RecordError):
        steps(record)
    with pytest.raises(ValueError):
        encode_animation([])


def test_the_command_line_replays_an_exported_record(tmp_path: Path) -> None:
    record = write_record(played("block", 2), {"names": ["Ann", "Bob"]})
    source = tmp_path / "game.json"
    source.write_text(json.dumps(record), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "renderer", "replay", str(source), str(tmp_path / "game.mp4")],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    made = tmp_path / "game.mp4"
    # The bot's words aside, the same animation. Not the same bytes: x264's threads make its output
    # depend a little on timing (seen on a busy machine), so its frames and their times are compared.
    assert shown_frames(made.read_bytes()) == shown_frames(render_replay(record).data)
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    broken = subprocess.run(
        [sys.executable, "-m", "renderer", "replay", str(tmp_path / "broken.json"), str(tmp_path / "x.mp4")],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert broken.returncode == 1 and "cannot be read" in broken.stderr and not (tmp_path / "x.mp4").exists()


def test_the_frames_are_made_one_at_a_time_as_they_are_encoded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31: a long match's thousand frames were all in memory before the first was encoded (its
    worker kept 600 MB); now each is made when the encoder reads it, and let go after."""
    import weakref

    import renderer.replay as replay_module

    made = replay_module._frame
    frames_made: list[weakref.ref[Any]] = []
    most = [0]

    def counted(*args: Any) -> Any:
        frame = made(*args)
        frames_made.append(weakref.ref(frame))
        most[0] = max(most[0], sum(1 for ref in frames_made if ref() is not None))
        return frame

    monkeypatch.setattr(replay_module, "_frame", counted)
    game = played("block", 2)
    frames = steps(write_record(game), ["Ann", "Bob"], width=360)
    assert most[0] == 0  # nothing made yet
    animation = encode_animation(frames)
    assert animation.frames == len(frames) > 20 and animation.format == "mp4"
    assert most[0] <= 3  # the one encoded, the last (held at the end) and one being let go
