"""The one masker: keys of the repository's `.env` (one of them a PEM key of several lines) and of a
variable the config names never reach the mutator's provider, the records, the chart, the reading
commands or the console, though only the eval itself loads `.env` (a command eval, the default)."""

from __future__ import annotations

import json

import yaml

from tests.helpers.fake_llm import text_reply, tool_reply
from tests.helpers.repos import cli, git
from tests.helpers.scenario import scenario_repo, scores
from tests.optimizer.api.test_api import Api

API_KEY = "sk-acme-0123456789abcdef"
PEM_BODY = [
    "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj",
    "MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu",
    "NMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ",
]
PEM = "\n".join(["-----BEGIN PRIVATE KEY-----", *PEM_BODY, "-----END PRIVATE KEY-----"])
CREDENTIAL = "cred-55aa77bb99cc"  # in a variable the config names, whose name looks like no key's
DOTENV = f'ACME_API_KEY={API_KEY}\nSERVICE_PRIVATE_KEY="{PEM}"\n'
SECRETS = [API_KEY, CREDENTIAL, *PEM_BODY]
LEAKY_EVAL = (  # loads .env itself, and fails on an artifact that says LEAK, printing every key
    "set -a; . ./.env; set +a; "
    'grep -q LEAK prompt.md && { echo "auth failed: $ACME_API_KEY $LLM_CREDENTIAL $SERVICE_PRIVATE_KEY" >&2; exit 3; }; '
    "python3 evals/score.py {run_dir} prompt.md"
)
META = ".autoresearch/runs/exp/_autoresearch"


def leaky_repo(tmp_path, fake_llm):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0)},
        {},
        config={"eval": {"command": LEAKY_EVAL}, "stop": {"max_cycles": 3}},
        extra_files={".gitignore": ".env\n"},
    )
    config = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    config["mutator"] = {
        "provider": "openai",
        "model": "gpt-4.1-mini",
        "api_key_env": "LLM_CREDENTIAL",
        "base_url": fake_llm.base_url("openai"),
        "retry_base_s": 0.01,
    }
    (repo / "autoresearch.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    git(repo, "commit", "-qam", "LLM mutator")
    (repo / ".env").write_text(DOTENV)
    return repo


def leaked(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret in text]


def test_dotenv_and_named_keys_reach_neither_the_provider_nor_any_record_nor_the_console(tmp_path, fake_llm):
    repo = leaky_repo(tmp_path, fake_llm)
    fake_llm.queue(
        tool_reply(
            "read_file",
            {"path": ".env"},
            ("search", {"pattern": API_KEY[:10]}),
            ("search", {"pattern": PEM_BODY[1][:12]}),
            ("list_dir", {"path": "."}),
        ),
        tool_reply("write_file", {"path": "prompt.md", "content": scores(a=1) + "LEAK\n"}),
        text_reply("Raise a"),
        tool_reply("write_file", {"path": "prompt.md", "content": scores(a=1)}),
        text_reply(f"Raise a, signed with {API_KEY}"),  # a model that knew a key all along
    )
    done = cli(repo, "run", env={"LLM_CREDENTIAL": CREDENTIAL})
    assert done.returncode == 0, done.stderr

    sent = json.dumps([r.body for r in fake_llm.requests])
    answers = fake_llm.requests[1].body["messages"]
    assert [m["content"] for m in answers if m["role"] == "tool"][1:3] == ["(no matches)", "(no matches)"]
    assert "ACME_API_KEY=***" in sent and "-----BEGIN PRIVATE KEY-----" in sent  # the file was read, masked
    lines = [json.loads(line) for line in (repo / META / "iterations.jsonl").read_text().splitlines()]
    assert lines[1]["decision"] == "error" and "auth failed: *** ***" in lines[1]["error"]
    assert lines[2]["mutation"] == "Raise a, signed with ***"
    written = {
        "provider": sent,
        "console": done.stdout + done.stderr,
        "commits": git(repo, "log", "--format=%B"),
        **{name: (repo / META / name).read_text() for name in ("iterations.jsonl", "daemon.log", "trajectory.html")},
    }
    for command in (["report", "--json"], ["log", "--json"], ["status", "exp", "--json"], ["logs", "exp"]):
        shown = cli(repo, *command)
        assert shown.returncode == 0, shown.stderr
        written[" ".join(command)] = shown.stdout + shown.stderr
    api = Api(repo)
    try:
        for route in (
            "/v1/experiments/exp",
            "/v1/experiments/exp/iterations",
            "/runs/exp/_autoresearch/trajectory.html",
        ):
            written[route] = api.http.get(route).text
    finally:
        api.close()
    assert "auth failed: *** ***" in written["/v1/experiments/exp/iterations"]
    assert {name: leaked(text) for name, text in written.items() if leaked(text)} == {}


def test_a_pem_key_in_the_environment_is_masked_in_search_read_file_and_a_collapsed_error(tmp_path, fake_llm):
    eval_command = (
        'grep -q LEAK prompt.md && { printf "bad key:\\n%s\\n" "$SERVICE_PRIVATE_KEY" >&2; exit 3; }; '
        "python3 evals/score.py {run_dir} prompt.md"
    )
    repo = leaky_repo(tmp_path, fake_llm)
    (repo / ".env").unlink()
    config = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    config["eval"]["command"], config["stop"]["max_cycles"] = eval_command, 2
    (repo / "autoresearch.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    (repo / "deploy").mkdir()
    (repo / "deploy/service.pem").write_text(PEM + "\n")  # a key committed by mistake
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "eval prints the key; a key file")
    fake_llm.queue(
        tool_reply("search", {"pattern": PEM_BODY[1][:12]}, ("read_file", {"path": "deploy/service.pem"})),
        tool_reply("write_file", {"path": "prompt.md", "content": scores(a=1) + "LEAK\n"}),
        text_reply("Raise a"),
    )
    done = cli(repo, "run", env={"LLM_CREDENTIAL": CREDENTIAL, "SERVICE_PRIVATE_KEY": PEM})
    assert done.returncode == 10, done.stderr

    found, read = [m["content"] for m in fake_llm.requests[1].body["messages"] if m["role"] == "tool"]
    assert found == "(no matches)" and read.endswith(
        "-----BEGIN PRIVATE KEY-----\n***\n***\n***\n-----END PRIVATE KEY-----\n"
    )
    error = [json.loads(line) for line in (repo / META / "iterations.jsonl").read_text().splitlines()][1]["error"]
    assert error == "eval exited 3: bad key: ***"
    written = {
        "provider": json.dumps([r.body for r in fake_llm.requests]),
        "console": done.stdout + done.stderr,
        **{name: (repo / META / name).read_text() for name in ("iterations.jsonl", "daemon.log", "trajectory.html")},
    }
    assert {name: leaked(text) for name, text in written.items() if leaked(text)} == {}


def test_the_api_masks_the_rows_an_eval_wrote_with_a_key_of_dotenv_in_them(tmp_path, fake_llm):
    repo = leaky_repo(tmp_path, fake_llm)
    config = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    config["eval"]["command"] = (  # a row's error quoting the key, as a target's failure may
        "set -a; . ./.env; set +a; "
        'printf \'{"test_id": "a", "score": 0, "error": "401 for %s"}\\n\' "$ACME_API_KEY" > {run_dir}/index.jsonl'
    )
    (repo / "autoresearch.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    git(repo, "commit", "-qam", "an eval whose rows quote the key")
    api = Api(repo)
    try:
        answer = api.http.post("/v1/eval", headers=api.auth())
    finally:
        api.close()
    assert answer.status_code == 200, answer.text
    assert answer.json()["rows"][0]["error"] == "401 for ***" and not leaked(answer.text)


def test_a_key_in_a_record_written_before_masking_is_masked_by_every_reading_command(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, {2: {"write": {"prompt.md": scores(a=1)}}})
    assert cli(repo, "run").returncode == 0
    history = repo / META / "iterations.jsonl"  # as an older version wrote it, the key in clear
    history.write_text(history.read_text().replace('"mutation": "mutated"', f'"mutation": "use {API_KEY}"'))
    shown = {
        " ".join(command): cli(repo, *command, env={"ACME_API_KEY": API_KEY})
        for command in (["report", "--json"], ["log", "--json"], ["log"], ["status", "exp", "--json"], ["report"])
    }
    assert all(done.returncode == 0 for done in shown.values())
    assert "use ***" in shown["log --json"].stdout and "use ***" in shown["status exp --json"].stdout
    assert [name for name, done in shown.items() if API_KEY in done.stdout + done.stderr] == []


def test_the_dotenv_files_learned_are_those_of_each_folder_up_to_the_eval_file_and_the_scripts(tmp_path):
    from autoresearch.optimizer.config import Config
    from autoresearch.optimizer.masking import dotenv_files, key_names

    for name in (".env", "evals/.env", "evals/sub/.env.local", "scripts/.env", "other/.env", "evals/sub/.envs/x"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("A_KEY=0123456789\n")
    mutator = {"provider": "openai", "model": "m", "api_key_env": "LLM_CREDENTIAL"}
    by_file = Config.model_validate({"artifact": "p.md", "eval": {"file": "evals/sub/s.eval.yaml"}, "mutator": mutator})
    by_command = Config.model_validate(
        {
            "artifact": "p.md",
            "eval": {"command": "python3 scripts/run.py {run_dir} --out ../elsewhere/x"},
            "mutator": mutator,
            "executor": {"type": "ray", "env": ["SHIPPED"]},
        }
    )
    relative = lambda config: [str(p.relative_to(tmp_path)) for p in dotenv_files(config, tmp_path)]  # noqa: E731
    assert relative(by_file) == [".env", "evals/.env", "evals/sub/.env.local"]
    assert relative(by_command) == [".env", "scripts/.env"]
    assert key_names(by_command) == {"LLM_CREDENTIAL", "SHIPPED"}
