"""The list of the control API's token files, which every sandbox hides (autoresearch.plumbing.service_secrets)."""

from __future__ import annotations

import os

from autoresearch.plumbing import service_secrets


def test_a_token_file_under_a_folder_whose_name_is_not_utf8_is_listed_as_it_is_named(tmp_path, monkeypatch):
    """A repository in a folder named in Latin-1: the list held the name's `\\udcff` escape as text (a path that does
    not exist), so no sandbox hid the token of that repository's `serve`."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    folder = tmp_path / os.fsdecode(b"caf\xe9")
    folder.mkdir()
    token = folder / "token"
    token.write_text("secret")
    service_secrets.register(token)
    service_secrets.register(tmp_path / "other")  # the first is kept when the list is written again
    assert token in service_secrets.files()


def test_the_systems_sockets_that_run_commands_are_doors_to_hide(tmp_path, monkeypatch):
    """For a daemon run as root, the system bus and systemd's private socket start any unit outside the sandbox
    (`systemd-run`), as Docker's socket runs any container: each one there is hidden, the others are not named."""
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "no-runtime"))
    for door in ("run/dbus/system_bus_socket", "run/systemd/private", "run/docker.sock"):
        (tmp_path / door).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / door).touch()  # what is there is hidden, whatever it is (a socket's path may be too long here)
    assert set(service_secrets.doors(tmp_path)) == {
        tmp_path / "run/dbus/system_bus_socket",
        tmp_path / "run/systemd/private",
        tmp_path / "run/docker.sock",
    }
