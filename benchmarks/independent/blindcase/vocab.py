"""How people in each agency say things on the radio.

Three families of practice: plain English, APCO-style ten-codes (the numbers differ
from agency to agency in real life; these are this fictional county's), and the
looser phrasing of a department that never standardised ("out at the school").
"""

from __future__ import annotations

import random

PHRASES: dict[str, dict[str, list[str]]] = {
    "unit_enroute": {
        "plain": ["{cs} en route", "{cs} responding", "{cs}, copy, on my way", "{cs} headed that way from {street}"],
        "ten": ["{cs} 10-76", "{cs} 10-4, 10-76", "{cs} show me 10-76 to the school"],
        "slang": ["{cs} rolling", "{cs} in route from {street}", "{cs} coming in hot", "{cs} I'm on the way"],
    },
    "unit_arrived": {
        "plain": ["{cs} on scene", "{cs} on scene at {place}", "{cs} arrived, {place}", "{cs} I'm here at {place}"],
        "ten": ["{cs} 10-97", "{cs} 10-97 {place}", "{cs} 10-23 at the school"],
        "slang": [
            "{cs} out at the school",
            "{cs} I'm out, {place}",
            "{cs} on location",
            "{cs} arriving",
            "{cs} at staging, {place}",
            "{cs} pulling up {place}",
        ],
    },
    "unit_arrived_fire": {
        "plain": ["{cs} on scene {place}", "{cs} on location at {place}", "{cs} arrived {place}"],
        "ten": ["{cs} 10-97 {place}", "{cs} on scene {place}"],
        "slang": ["{cs} at {place}", "{cs} in position at {place}"],
    },
    "staging": {
        "plain": ["{cs} staged at {staging}", "{cs} at staging, {staging}", "{cs} staging at {staging}"],
        "ten": ["{cs} 10-97 staging {staging}", "{cs} in staging"],
        "slang": ["{cs} staged", "{cs} holding at {staging}", "{cs} at the staging area"],
    },
    "shots_reported": {
        "plain": [
            "{cs} shots fired, shots fired, {bldg}",
            "{cs} I hear shots in {bldg}",
            "{cs} more shots, {bldg}",
            "{cs} shots still being fired inside",
        ],
        "ten": ["{cs} 10-71, shots fired {bldg}", "{cs} 10-71 {bldg}", "{cs} additional 10-71"],
        "slang": [
            "{cs} I got gunfire, {bldg}",
            "{cs} rounds going off in {bldg}",
            "{cs} more shots, sounds like upstairs",
            "{cs} he's still shooting",
        ],
    },
    "entry_start": {
        "plain": [
            "{cs} we're going in the {door} with {team}",
            "{cs} making entry {door}, {team} with me",
            "{cs} entering {bldg} at the {door}",
        ],
        "ten": ["{cs} entry team going in {door}, {team}", "{cs} 10-4 we're making entry {door}"],
        "slang": ["{cs} moving in, {door}, {team}", "{cs} we're going in", "{cs} team's going in the {door}"],
    },
    "entry_inside": {
        "plain": ["{cs} we're inside", "{cs} inside {bldg}, first floor"],
        "ten": ["{cs} inside the building", "{cs} we're in"],
        "slang": ["{cs} we're inside, moving up", "{cs} in the building"],
    },
    "threat_stopped": {
        "plain": [
            "{cs} suspect down, officers detaining",
            "{cs} one in custody, {floor} floor",
            "{cs} we have the suspect, subject secured",
        ],
        "ten": ["{cs} suspect 10-15", "{cs} one 10-15, {floor} floor", "{cs} shooter 10-15, code 4 on the suspect"],
        "slang": [
            "{cs} shooter's down, we got him",
            "{cs} suspect on the floor, officers detaining",
            "{cs} he's down, cuffing him now",
        ],
    },
    "patient_contact": {
        "plain": ["{cs} receiving one patient", "{cs} we have one patient", "{cs} patient contact"],
        "ten": ["{cs} receiving one", "{cs} one patient aboard"],
        "slang": ["{cs} got one", "{cs} pt contact, one red"],
    },
    "patient_transported": {
        "plain": ["{cs} transporting one to {hospital}", "{cs} en route to {hospital} with one patient"],
        "ten": ["{cs} 10-76 {hospital} with one", "{cs} transporting {hospital}"],
        "slang": ["{cs} rolling to {hospital} with one", "{cs} leaving for {hospital}"],
    },
    "dispatch": {
        "plain": [
            "{cs}, respond {school}, shots fired",
            "{cs}, {school}, active shooter, respond",
            "{cs}, shooting at {school}, respond code 3",
        ],
        "ten": ["{cs}, 10-71 at {school}, respond code 3", "{cs}, copy 10-71 {school}"],
        "slang": ["{cs}, head to {school}, shots fired", "{cs}, get over to {school}"],
    },
    "unit_arrived_routine": {
        "plain": ["{cs} on scene", "{cs} on scene at {place}", "{cs} arrived"],
        "ten": ["{cs} 10-97", "{cs} 10-97 {place}", "{cs} 10-23"],
        "slang": ["{cs} I'm out", "{cs} out at {place}", "{cs} on location"],
    },
    "unit_available": {
        "plain": ["{cs} clear", "{cs} back in service", "{cs} clear of the call"],
        "ten": ["{cs} 10-8", "{cs} 10-24, 10-8", "{cs} show me 10-8"],
        "slang": ["{cs} I'm clear", "{cs} available", "{cs} done here, clear"],
    },
    "dispatch_routine": {
        "plain": ["{cs}, respond {place}, {nature}", "{cs}, {nature} at {place}"],
        "ten": ["{cs}, copy a {nature} at {place}", "{cs}, {place}, {nature}, 10-4?"],
        "slang": ["{cs}, can you take a {nature} at {place}", "{cs}, {nature}, {place}"],
    },
    "tone_out": {
        "plain": [
            "{cs}, respond to staging at {staging}, active shooter {school}",
            "{cs}, stage at {staging} for shooting incident, {school}",
        ],
        "ten": ["{cs}, respond staging {staging}, 10-71 {school}"],
        "slang": ["{cs}, go to staging {staging}, shooting at {school}"],
    },
}

CHATTER = {
    "broadcast": [
        "All units, shots fired at {school}, {address}",
        "All units, active shooter {school}",
        "Any unit available, shots fired {school}",
    ],
    "hold": [
        "{cs} hold the perimeter, nobody goes in until we have a team",
        "{cs} set up on {street}, hold there",
        "{cs} everybody hold your positions",
    ],
    "location": [
        "{cs} I'm at the {side} side of {bldg}",
        "{cs} I'm covering the {side} doors",
        "{cs} behind the {side} wall of {bldg}",
    ],
    "description": [
        "{cs} suspect described as male, dark clothing, rifle",
        "{cs} caller says he's wearing a dark hoodie",
        "{cs} suspect possibly on the {floor} floor",
    ],
    "camera": [
        "{cs} cameras show him on the {floor} floor, west hall",
        "{cs} camera has him in the {floor} floor stairwell",
        "{cs} per cameras he's moving down the {floor} floor hall",
    ],
    "patch": ["Patch is up between {a} and {b}", "All units, we're patched with {b} now"],
    "copy": ["{cs} copy", "{cs} 10-4", "{cs} copy that"],
    "scene": [
        "{cs} still holding the {side} side",
        "{cs} need a rifle at the {side} doors",
        "{cs} kids coming out the {side} doors",
        "{cs} I've got a victim outside {bldg}, need EMS",
        "{cs} more units to the {side} side",
        "{cs} who has the {side} side?",
        "{cs} I'm with {cs2} on the {side} side",
        "{cs} setting up traffic at {street}",
        "{cs} parents arriving at {street}, need help with traffic",
    ],
    "dispatch_scene": [
        "Units be advised, callers say the shooter is on the {floor} floor",
        "All units, EMS is staging at {staging}",
        "Units on scene, command post is at the {lot}",
        "Any unit, status of the {side} side?",
        "Copy, {cs}",
        "{cs}, copy, advising command",
        "All units, keep this channel clear for traffic from the school",
    ],
}

FLOOR_WORDS = {1: "first", 2: "second", 3: "third"}


def phrase(rng: random.Random, family: str, kind: str, **params) -> str:
    choices = PHRASES[kind][family]
    return rng.choice(choices).format(**params)


def chatter(rng: random.Random, kind: str, **params) -> str:
    return rng.choice(CHATTER[kind]).format(**params)
