"""News organisations as speakers: "CNN reported", "according to the Orlando Sentinel", "An
Associated Press review of records found", "..., the newspaper reported". An outlet is an
`outlet:` entity, never a person or an agency."""

from __future__ import annotations

import re

from onrecord.claims.named_entities import Resolution
from onrecord.claims.records import Entity
from onrecord.claims.voices import Voice

# News organisations: an acronym of a network or a name with a newspaper's word.
OUTLET_NAME = (r"(?:the\s+)?(?:CNN|NBC|ABC|CBS|NPR|PBS|AP|BBC|Fox News|MSNBC|Reuters|Axios|Breitbart(?: News)?|"
               r"USA TODAY|Politico|POLITICO|Newsweek|Bloomberg|ProPublica|HuffPost|BuzzFeed News|Vox|Slate|"
               r"Univision|Telemundo|Fox News Digital|(?-i:[Tt]he\s+Hill)|"
               # a newspaper whose name joins two words: the Austin American-Statesman, Express-News
               r"(?:[A-Z][\w.&’'-]*\s+){0,3}[A-Z]\w+-(?:Statesman|News|Times|Telegram|Constitution|Tribune|Union|"
               r"Enterprise|Journal|Herald|Gazette|Post|Star|Sun|Record|Register|Leader|Democrat|Courier|Ledger|"
               r"Review|Press|Dispatch|Chronicle|Observer|Bulletin|Intelligencer|Standard|Mail)|"
               r"(?:[A-Z][\w.&’'-]*\s+){1,2}Monthly|"
               r"(?:[A-Z][\w.&’'-]*\s+){0,4}(?:News|Times|Post|Herald|Tribune|Journal|Press|Sentinel|Courant|"
               r"Gazette|Chronicle|Daily|Radio|Network|Today|Examiner|Star|Globe|Inquirer|Register|Bee|Dispatch|"
               r"Telegraph|Guardian|Independent|Insider|Beast|Magazine|Wire|Channel \d+|\d+ News|Courier|Observer|"
               r"Sun|Record|Bulletin|Enquirer|Advocate|Statesman|Republic|Ledger|Citizen|Mercury|Democrat|Monitor|"
               r"Review-Journal|Free Press|Sun-Times|Eagle|Oregonian|Plain Dealer|Tribune-Review|Post-Gazette|"
               r"Union-Tribune|Times-Picayune|Standard|Leader|Reporter|Courier-Journal|Argus|Clarion-Ledger|Mail|Project)"
               # a broadcaster's call sign: KXAN, WFAA-TV
               r"|(?-i:[KW][A-Z]{2,3})(?:-TV)?(?:\s+\d{1,2}(?![\d:.,]))?)")
# "The Courier, citing two officials, reported": a set-off phrase between the outlet and its verb
OUTLET_LEFT = re.compile(rf"(?:^|[\s,(])({OUTLET_NAME})\s*(?:,[^,;“”\"]{{1,60}},\s*)?"
                         r"(?:also\s+|first\s+|has\s+|had\s+)?$")
OUTLET_FULL = re.compile(rf"^\s*({OUTLET_NAME})\b")
# "An Associated Press review of records found", "according to a CNN tally": an outlet's own work
OUTLET_WORK = (r"(?:review|analysis|investigation|tally|count|examination|survey|reconstruction|"
               r"reporting|report|timeline)")
OUTLET_DOC_LEFT = re.compile(rf"(?:^|[\s,(])(?i:an?|the|its)\s+({OUTLET_NAME})(?:[’']s)?\s+{OUTLET_WORK}\b"
                             r"[^,;“”\"]{0,60}?\s+(?:also\s+)?$")
OUTLET_DOC = re.compile(rf"^\s*(?i:an?|the|its)\s+({OUTLET_NAME})(?:[’']s)?\s+{OUTLET_WORK}\b")
# "according to reporting by the Ledger", "according to an analysis by CNN": the outlet's work
OUTLET_WORK_BY = re.compile(rf"^\s*(?i:(?:an?|the|its)\s+)?(?:[\w-]+\s+)?{OUTLET_WORK}\s+(?i:by|from|of)\s+"
                            rf"({OUTLET_NAME})\b")
# "..., the newspaper reported": the outlet named last before it
OUTLET_WORD = re.compile(r"(?:^|,\s*)(?:the|that)\s+(newspaper|paper|station|network|outlet|broadcaster|magazine|"
                         r"wire service|news agency|site|website)"
                         # "The newspaper's analysis found that ...": the outlet's own work
                         r"(?:[’']s\s+(?:[\w-]+\s+)?(?:analysis|review|investigation|reporting|tally|count|"
                         r"examination|reconstruction|survey))?\s+(?:also\s+|has\s+|had\s+)?$", re.IGNORECASE)
OUTLET_ANY = re.compile(rf"(?:^|[\s,(“\"])({OUTLET_NAME})\b")


def outlet_voice(text: str, res: Resolution | None) -> Voice | None:
    """'CNN reported', 'according to the Orlando Sentinel': a news organisation speaks."""
    m = OUTLET_FULL.match(text)
    if m is None:
        return None
    name = re.sub(r"^the\s+", "", m.group(1).strip(), flags=re.IGNORECASE)  # The Post, the Post: one outlet
    oid = "outlet:" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if res is not None:
        res.entities.setdefault(oid, Entity(oid, "outlet", name))
    return Voice(oid, m.group(1).strip())
