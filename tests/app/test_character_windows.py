"""A key's characters a minute (attnmt.server.character_windows): a moving one-minute window whose charges can be
given back, on a clock the tests turn by hand."""

from attnmt.server.character_windows import CharacterWindows


class Clock:
    """Seconds that pass only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_key_has_room_for_characters_within_its_minute():
    windows = CharacterWindows(Clock())
    windows.charge(1, 20)
    assert windows.wait(1, 10, 30) == 0


def test_a_key_waits_until_enough_of_its_oldest_charges_have_left_the_window():
    """20 at 0 s and 5 at 10 s of 30 a minute: 10 more fit once the 20 leave, at 60 s, 50 s from 10 s."""
    clock = Clock()
    windows = CharacterWindows(clock)
    windows.charge(1, 20)
    clock.now += 10
    windows.charge(1, 5)
    assert windows.wait(1, 10, 30) == 50


def test_a_charge_given_back_leaves_room_at_once():
    windows = CharacterWindows(Clock())
    windows.charge(1, 10)
    charge = windows.charge(1, 20)
    windows.give_back(charge)
    assert windows.wait(1, 20, 30) == 0


def test_a_charge_given_back_after_it_left_the_window_takes_nothing_else_back():
    clock = Clock()
    windows = CharacterWindows(clock)
    charge = windows.charge(1, 20)
    clock.now += 60
    windows.charge(1, 20)
    windows.give_back(charge)
    assert windows.wait(1, 20, 30) == 60


def test_each_key_has_a_window_of_its_own():
    windows = CharacterWindows(Clock())
    windows.charge(1, 30)
    assert windows.wait(2, 30, 30) == 0
