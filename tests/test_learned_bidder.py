"""The learned bidder computes the learned player's bids in plain Python: the same inputs as
the research encoding, the same Q values as the torch network, the same bids; the search levels
bid with it where the package has a network, and as the rule bot elsewhere."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
import torch

from baofen import Bid, Hand, RuleSet
from baofen.bots import make_bot
from baofen.bots.learned.bidder import (
    LearnedBidder,
    bidding_inputs,
    default_weights,
    read_weights,
)
from baofen.bots.levels import BIDDER, hard_bot
from baofen.bots.rule.bot import RuleBot
from baofen.bots.search.bot import BOLD_MARGINS, SearchBot
from baofen.env.candidates import candidates, stack
from baofen.env.encoding import Encoder
from baofen.env.neural import NeuralBot, export, load, new_model, save
from baofen.observation import Observation


def bidding_observations(rules: RuleSet, deals: int, seed: int) -> list[Observation]:
    """Every bidding observation of ``deals`` hands whose seats bid at random among the legal
    bids (a third of the time) or as the rule bot."""
    rng = random.Random(seed)
    rule = RuleBot()
    out = []
    for deal in range(deals):
        hand = Hand(rules, seed=seed * 1000 + deal)
        for seat in hand.turns():
            if hand.phase != "bidding":
                break
            obs = hand.observation(seat)
            out.append(obs)
            value = rng.choice(obs.legal_bids()) if rng.random() < 0.33 else rule.bid(obs)
            hand.apply(seat, Bid(value))
    return out


@pytest.fixture(scope="module")
def tiny_hongwu(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 包红五 network, saved by the research code and exported (no 包红五 network
    ships)."""
    folder = tmp_path_factory.mktemp("qnet")
    rules = RuleSet.hongwu()
    torch.manual_seed(5)
    save(new_model(rules, hidden=32), rules, folder / "hongwu.pt", {"trust": "bidding"})
    export(folder / "hongwu.pt", folder / "hongwu.qnet")
    return folder


def test_the_package_ships_the_baofen_network_and_none_for_hongwu() -> None:
    bidder = LearnedBidder()
    assert bidder.serves(RuleSet.baofen())
    assert not bidder.serves(RuleSet.hongwu())
    assert not bidder.serves(RuleSet.baofen(bid_values=(85, 90)))  # another bid grid


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_inputs_values_and_bids_are_the_learned_players(variant: str, tiny_hongwu: Path) -> None:
    path = default_weights("baofen") if variant == "baofen" else tiny_hongwu / "hongwu.qnet"
    rules = RuleSet.create(variant=variant)
    network = read_weights(path)
    model, _, _, _ = load(str(path))
    encoder = Encoder(rules)
    bidder = LearnedBidder(path)
    player = NeuralBot(weights=path)
    advisor = RuleBot()
    observations = bidding_observations(rules, 40, seed=3)
    assert len(observations) > 100
    for obs in observations:
        dense = np.zeros(encoder.size, dtype=np.float32)
        for index, value in bidding_inputs(network, obs):
            dense[index] += value
        state = encoder.encode(obs)
        assert np.array_equal(dense, state)
        options = candidates(obs, advisor, random.Random(0))
        with torch.inference_mode():
            expected = model(torch.from_numpy(state), torch.from_numpy(stack(rules, options)))
        values = bidder.values(network, obs, [option.action.value for option in options])
        assert np.allclose(values, expected.numpy(), atol=1e-5)
        assert Bid(bidder.bid(obs)) == player.act(obs)


def test_an_exported_network_is_the_trained_one(tiny_hongwu: Path) -> None:
    trained, rules, scale, meta = load(str(tiny_hongwu / "hongwu.pt"))
    exported, rules_back, scale_back, meta_back = load(str(tiny_hongwu / "hongwu.qnet"))
    assert (rules_back, scale_back, meta_back) == (rules, scale, meta)
    for name, tensor in trained.state_dict().items():
        assert torch.equal(exported.state_dict()[name], tensor), name


def test_a_bidder_file_of_another_kind_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.qnet"
    bad.write_bytes(b"not a network\n")
    with pytest.raises(ValueError, match="not a weights file"):
        read_weights(bad)
    with pytest.raises(ValueError, match="no weights at"):
        read_weights(tmp_path / "none.qnet")


def test_a_search_level_bids_with_it_where_it_serves() -> None:
    bidder = LearnedBidder()
    departed = 0
    for obs in bidding_observations(RuleSet.baofen(), 60, seed=8):
        learned = hard_bot(seed=1, bidder="learned").act(obs)
        assert learned == Bid(bidder.bid(obs))
        departed += learned != RuleBot().act(obs)
    assert departed > 0  # the learned bids are not the rule bot's
    for obs in bidding_observations(RuleSet.hongwu(), 10, seed=8):
        assert make_bot("master", seed=1, bidder="learned").act(obs) == RuleBot().act(obs)


@pytest.mark.parametrize("variant", ["baofen", "hongwu"])
def test_the_levels_bid_boldly(variant: str) -> None:
    assert BIDDER == "bold"
    rules = RuleSet.create(variant=variant)
    bold = RuleBot(bid_margin=BOLD_MARGINS[variant])
    departed = 0
    for obs in bidding_observations(rules, 40, seed=9):
        assert hard_bot(seed=1).act(obs) == make_bot("master", seed=2).act(obs)
        assert hard_bot(seed=1).act(obs) == bold.act(obs)
        assert hard_bot(seed=1, bidder="rule").act(obs) == RuleBot().act(obs)
        departed += bold.act(obs) != RuleBot().act(obs)
    assert BOLD_MARGINS[variant] < 0 and departed > 0  # bolder than the rule bot in both games


def test_the_bidder_option_is_checked() -> None:
    with pytest.raises(ValueError, match="bidder is one of rule, bold, learned"):
        make_bot("search", bidder="neural")
    with pytest.raises(ValueError, match="both choose the bids"):
        make_bot("search", bidder="learned", contract=8)
    searched = make_bot("hard", contract=8)
    assert isinstance(searched, SearchBot) and searched.bidder is None  # the searched bids
