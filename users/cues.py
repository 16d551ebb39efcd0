"""How agents word each act, as patterns over one lower-case sentence (``users.dialogue`` reads).

Each act is a small table of regular expressions, compiled once. Patterns are written in the
positive form ("has been cancelled", "I've cancelled"), so a negated or hedged sentence ("it
hasn't been cancelled yet", "I haven't cancelled anything") does not match them; a few acts
also have *blocking* patterns (a refusal cue that says something was not found, a transfer the
agent says it cannot make). The words are how people write, not the calibrators' phrases.
"""

from __future__ import annotations

import re


def compiled(*alternatives: str) -> re.Pattern[str]:
    """One pattern matching any of ``alternatives`` from the start of a word."""
    return re.compile(r"(?<![\w'])(?:" + "|".join(alternatives) + ")")


_ME = r"(?:i|we)"
_HAVE = r"(?:i|we)(?:'ve| have)"
_ADV = r"(?:just |now |already |successfully |also |gone ahead and |went ahead and )*"

WRITE_VERBS = (
    r"cancel(?:l)?ed|updated|changed|modified|processed|issued|refunded|booked|rebooked|reserved"
    r"|scheduled|rescheduled|moved|added|removed|applied|submitted|filed|opened|sent|set up"
    r"|switched|upgraded|downgraded|credited|waived|reversed|replaced|exchanged|initiated|placed"
    r"|arranged|activated|reactivated|deactivated|enabled|disabled|blocked|frozen|froze|unfrozen"
    r"|unfroze|locked|unlocked|renewed|extended|paid|adjusted|corrected|registered|enrolled"
    r"|ordered|requested|logged|lodged|raised|started|created|transferred|suspended|restored"
    r"|reinstated|refilled|redirected|pointed|swapped|returned|recorded|noted|saved|put through"
    r"|charged|posted|marked|lifted|removed|dropped|turned on|turned off|switched on|switched off"
    r"|taken care of|sorted|handled|fixed|resolved|completed|finalized|finalised|confirmed"
    r"|authorized|authorised|approved|released|reset|added on|signed you up|signed up|upgraded"
)
"""Past participles of the actions an agent carries out (writes, not lookups)."""

_LOOKED = (
    r"checked|reviewed|looked|verified|noticed|located|pulled|searched|compared|tried|asked"
    r"|received|gone|been|had|confirmed (?:that|your identity|you|it's|the)|double-checked"
    r"|flagged|passed|handed|escalated|forwarded|transferred you|referred|shared|explained"
    r"|mentioned|listed|included|attached|outlined|summari[sz]ed|noted that|found|seen"
    r"|put together|prepared|drafted|lined up|pulled together|calculated|worked out|quoted"
)
"""What an agent says it did that is no action on the user's records (a lookup, a handoff)."""

DONE = compiled(
    _HAVE + r" " + _ADV + r"(?:" + WRITE_VERBS + r")\b",
    r"(?<!if )(?<!once )(?<!when )(?<!before )(?<!after )(?:i|we) (?:just |now |also |already"
    r" |successfully )*(?:" + WRITE_VERBS + r")\b(?! (?:it|that|this)? ?(?:if|once|when)\b)",
    _HAVE + r" " + _ADV + r"(?!" + _LOOKED + r")(?:\w+ed|made|given|taken|put|set|sent|paid"
    r"|done|got|begun)\b",
    r"(?:has|have|had) (?:now |just |already |successfully |also )*been (?:\w+ )?(?:"
    + WRITE_VERBS
    + r")\b(?! since)",
    r"(?:is|are) now (?:\w+ )?(?:" + WRITE_VERBS + r"|withdrawn|closed|active|live|in place|open"
    r"|set|showing|on file|back on|pointing|cleared|covered|\$)",
    r"(?:claim|request|order|booking|dispute|report|application|change|reading|payment|refund"
    r"|return|exchange) (?:is|are) in\b",
    r"(?:tip|waiver|add-on|addon|coverage|insurance|protection|bags?|discount|code|credit|hold"
    r"|lock|block|freeze|upgrade) (?:is|are) (?:now )?(?:on|active|applied|in place|added)\b",
    r"(?:is|are) (?:now )?active on your",
    r"(?:i|we) went ahead and (?:\w+ )?\w+ed\b",
    r"^[✔✅☑✓]",
    r"(?:payment|request|change|transfer|refund|booking|order|cancellation|upgrade|credit)"
    r" (?:\w+ ){0,3}(?:has|have) gone through",
    r"(?:is|are) (?:now )?(?:all )?set up\b|you(?:'re| are) now (?:on|booked|enrolled"
    r"|registered|covered)\b|(?:that's|that is|it's|it is|they're) (?:been )?saved\b",
    r"(?:is|are) now (?:\d|under (?:dispute|review))",
    r"(?:all|you're all|you are all|everything's|everything is) (?:set|done|sorted|good to go)",
    r"\bdone\b[!.—,:-]",
    r"^done$",
    r"^(?:switched|booked|cancel(?:l)?ed|sorted|fixed|updated|submitted|confirmed|finished|added"
    r"|applied|changed|filed|sent|reserved|withdrawn|rescheduled|upgraded|credited|refunded"
    r"|transferred|paid|all set)\b",
    r"successfully",
    r"(?:payment|transfer|refund|change|charge|booking|request|cancellation|dispute|update"
    r"|exchange|return) (?:has )?(?:went|gone) through",
    r"(?:transfer|payment|refund|cancellation|booking|change|update|request|reversal|dispute"
    r"|exchange|return|upgrade) (?:is )?(?:complete|completed|confirmed|processed|through)\b",
    r"(?:was |were |got |been |just |\d )(?:moved|credited|refunded|charged|added|sent|issued)"
    r" (?:to|from|back)\b|^(?:moved|credited|refunded|charged|added|sent|issued) (?:to|from"
    r"|back)\b",
    r"^[\w-]+ (?:issued|applied|added|processed|cancel(?:l)?ed|refunded|credited|sent|filed|booked"
    r"|submitted|confirmed|reversed|waived)\b[:!.]",
    r"(?:i|we)(?:'ve| have) [^.;]*? and (?:also )?(?:" + WRITE_VERBS + r")\b",
    r"(?:new|replacement) (?:card|order|item|device|sim) (?:ships|is shipping|will ship|arrives"
    r"|is on)",
    r"went (?:to|back to) (?:your|the card|the original)",
    r"(?:is|are) now (?:the|your|in|at)\b",
    r"you(?:'re| are) (?:now |all )?(?:booked|confirmed|in business|in economy|set|verified"
    r" and|enrolled|registered|covered)\b",
    r"(?:is|are) heading back|(?:is|are) going back to|on (?:its|their) way",
    r"(?:now |has been )?(?:shows?|reflects?) (?:a|the|your) (?:new |updated |balance)",
    r"(?:new|updated) (?:total|balance) is",
    r"\bnow (?:runs|ends|starts|goes|points|includes|covers|lists|reads|says|shows)\b",
    r"working again|(?:is|are) active again|back (?:up and running|in service|online)",
    r"(?:it's|that's|this is) (?:been )?(?:done|taken care of|sorted|in place|all set)",
    r"✅",
)
"""An action carried out, reported in the positive ("has been cancelled", "Done!", "All set")."""

DONE_STATE = compiled(
    r"(?:is|are) (?:officially |all )?(?:cancel(?:l)?ed|confirmed|frozen|unfrozen|filed"
    r"|rescheduled|reactivated|on its way|on the way|in!|on file|active again|back on|paid"
    r"|credited|reversed|refunded|submitted|upgraded|updated|sorted|unlocked|added|sent|done"
    r"|complete|completed|restored|applied|withdrawn|closed|recorded|reserved(?! for (?:drivers"
    r"|members|customers|guests|people|those|anyone))|booked(?! at| for that| solid| up))\b",
)
"""A record's new state, reported as done unless the same sentence refuses."""

DONE_BLOCKS = compiled(
    r"\bas (?:\w+ ){1,2}(?:is|are) \w+$",
    r"(?:once|after|when|as soon as|until|if|before|whether) (?:\w+ ){0,6}(?:has|have|is|are"
    r"|it's|it is)\b",
    r"^once (?:that|this|it)(?:'s| is| has been) (?:done|finished|complete)",
    r"(?:will|would|\w+'ll|can|could|should|may|might|won't|cannot|can't|going to) (?:\w+ ){0,3}"
    r"(?:be|get|have|make)\b",
    r"(?:nothing|not|never|no \w+) (?:has|have|is|are)\b",
    r"(?:haven't|hasn't|isn't|aren't|wasn't|weren't|not yet|yet to)\b",
    r"\bstatus\b",
    r"(?:\bnot|\bnever|n't) (?:\w+ )?\w+$",
)
"""Sentences whose done pattern is a condition, a future, a possibility or a negation."""

LOOKUP = compiled(
    _HAVE + r" " + _ADV + r"(?:found|located|checked|reviewed|looked|pulled up|verified"
    r"|confirmed your identity|gone through|went through)",
    r"(?:i|we) (?:found|located|checked|looked (?:at|into|up)|pulled up|verified|reviewed|went"
    r" through)\b",
    r"(?:i|we) (?:can )?see (?:that )?(?:your|the|an?|two|three|four|several|\d|#|one)\b",
    r"(?:i was|we were) able to (?:find|locate|pull up|verify)",
    r"you(?:'re| are) (?:now )?(?:verified|authenticated)",
    r"(?:here's|here is) what i found|according to|(?:it|this) (?:looks|seems) like (?!a |an )"
    r"|(?:shows|showing) (?:as|that)",
)
"""A lookup reported (what the agent found), which is progress but not an action done."""

DELAY = compiled(
    r"let me (?:quickly |just |go ahead and )?(?:check|look|pull|verify|find|see|review|take a"
    r" look|confirm|search|grab|bring up|dig|get|open)",
    r"(?:i'll|i will|i'm going to|i am going to) (?:quickly |just |go ahead and )?(?:check|look"
    r"|pull|verify|find|review|search|take a look|dig)",
    r"(?:i'm|i am) (?:now |just )?(?:checking|looking|pulling|reviewing|searching|verifying)",
    r"(?:^|, |— |- )(?:now )?(?:checking|looking|pulling|reviewing|searching) (?:up |into |for |on"
    r" )?",
    r"(?:one|just a|give me a|give me one|a|bear with me for a|hang on a|hold on a) (?:moment"
    r"|sec|second|minute|min)\b",
    r"bear with me|hang tight|please (?:hold|wait)|hold on",
)
"""A lookup announced, not yet made ("Let me check", "One moment")."""

NOT_FOUND = compiled(
    r"(?:can't|cannot|can not|couldn't|could not|wasn't able to|was not able to|weren't able to"
    r"|unable to|not able to|didn't|did not|don't|do not|can't seem to|couldn't seem to)"
    r" (?:seem to )?(?:find|locate|see|pull up|match|spot|bring up)(?: any| an?| the"
    r"| your| that| this)?",
    r"(?:\w*n't|not) (?:finding|seeing|showing|coming up|matching)",
    r"(?:couldn't|could not|can't|cannot|unable to|wasn't able to) (?:seem to )?locate",
    r"(?:don't|do not|didn't|did not) see (?:a|an|any|the)\b",
    r"no (?:\w+ )?(?:account|order|record|booking|reservation|profile|customer|match|result"
    r"|policy|claim|patient|file|user|matches|results)s? (?:\w+ )?(?:found|matching|under|with"
    r"|for|linked|on file|associated|came up|comes up)",
    r"(?:doesn't|does not|didn't|did not|don't|do not) (?:seem to )?(?:match|bring up|return"
    r"|turn up|show up)",
    r"(?:isn't|is not|wasn't|was not|aren't) (?:coming up|showing up|on file|in our system"
    r"|registered)",
    r"nothing (?:came|comes|turned|shows) up",
    r"(?:don't|do not) have (?:that|this|an?|any) (?:\w+ )?(?:on file|in our system|on record"
    r"|registered)|(?:isn't|is not|wasn't) on file",
)
"""Something the user named was not found ("I can't seem to find an account"): not a refusal."""

_PERCEIVE = (
    r"find|locate|see|spot|pull up|bring up|match|wait|thank|stress|promise|imagine|believe"
    r"|tell you how|say enough|help but"
)
REFUSAL = compiled(
    r"(?:can't|cannot|can not|couldn't|could not|won't be able to|will not be able to"
    r"|wouldn't be able to|unable to|not able to|not in a position to) (?:seem to )?(?!"
    + _PERCEIVE
    + r")\w+",
    r"(?:i|we|it|this|that|they|code|fee|discount) (?:won't|will not) (?:be )?(?:cancel|refund"
    r"|change|modif|process|approve|offer|give|issue|make|reverse|waive|credit|grant|extend"
    r"|allow|accept|go through|work|making|changing|going|apply)",
    r"(?:\w*n't|not|no longer|never) (?:\w+ )?(?:eligible|qualif|permitted|allowed|possible"
    r"|refundable|covered|an option|available|something (?:i|we) can|able to be|in a"
    r" position)",
    r"ineligible|final sale|doesn't qualify|does not qualify|don't qualify|do not qualify",
    r"(?:is|are|it's|remains?|stays?|was) (?:\w+ )?non-?refundable|non-?refundable (?:once|after"
    r"|because|so)",
    r"(?<=[:;] )(?:non-?refundable|cannot|can't|not allowed|not eligible|ineligible|denied)"
    r"(?:[.;]|$)",
    r"(?:isn't|is not|aren't|are not|wasn't|that's not|that is not|it's not|it is not)"
    r" (?:\w+ )?(?:something|anything|one) (?:that )?"
    r"(?:i|we)(?:'m| am| are)? (?:can|could|able|allowed|permitted)",
    r"(?:i'm|i am|we're|we are|i|we) (?:only|can only) (?:able to |allowed to |permitted to"
    r" )?(?:cancel|refund|change|process|offer|issue|discuss|do|make|move|reverse|waive"
    r"|credit|accept|return|exchange|book|help)",
    r"can only (?:be |come |go |happen )",
    r"^only (?:\w+ ){1,14}(?:can|may|qualify|are eligible)",
    r"(?:only|just) (?:work|works|apply|applies|cover|covers|allow|allows|go|goes) (?:for"
    r"|between|to|with|if|when)",
    r"(?:policy|rules?|terms) (?:only|doesn't|does not|don't|do not|won't|can't|prevents?"
    r"|prohibits?|requires?|says?|states?)",
    r"(?:policy|rules?) (?:is|are) (?:that|clear)",
    r"(?:outside|beyond|past|after) (?:the|our|your|its|that|what) (?:[\w-]+ ){0,2}(?:window"
    r"|period|policy|limit|deadline|point|cut-?off|scope|terms|(?:i|we)(?:'m| am| are)? (?:can"
    r"|able|allowed))",
    r"(?:falls|fall|is|are) outside",
    r"(?:limited|restricted) to|\bcapped\b",
    r"(?:i'm|i am|we're|we are) (?:not in a position|unable|not able|not allowed|not permitted"
    r"|not authorized|not authorised)",
    r"(?:i|we) (?:have to|must|need to) (?:decline|deny|refuse|turn down)",
    r"(?:can )?no longer (?:be )?(?:eligible|possible|cancel|refund|change|modif|return|exchange"
    r"|move|dispute|revers|accepted|edited|available|valid|an option|allowed)",
    r"(?:doesn't|does not) (?:look|seem) like (?:\w+ ){0,4}(?:can|will|is eligible|qualif)",
    r"more than \d+ days (?:ago|after|since)",
    r"(?:anymore|any longer)\b",
    r"(?:isn't|is not|aren't|are not|won't be|will not be) (?:possible|allowed|permitted"
    r"|refunded|refundable|covered|eligible|an option|doable)",
    r"(?:i'm|i am) afraid (?:that |this |it |we |i |the |your |there )",
    r"(?:unfortunately|regrettably|sadly)\b(?=.*(?:\bnot\b|n't\b|\bno\b|\bonly\b|\bunable\b"
    r"|\bpast\b"
    r"|\boutside\b|\btoo late\b|\balready\b|\bnever\b))",
    r"(?:won't|will not|wouldn't) (?:go through|be going through|work)",
    r"(?:doesn't|does not|don't|do not) (?:apply|qualify|allow|cover|permit|include)",
    r"(?:doesn't|does not|won't|will not|wouldn't) (?:let|allow) (?:me|us|you)\b",
    r"(?:is|are) only (?:possible|allowed|available|permitted|eligible|offered|accepted)",
    r"(?:has|have) (?:already )?expired|is expired|(?:is|are) (?:no longer|not) valid",
    r"the (?:best|most) (?:i|we) can (?:do|offer)",
    r"(?:we|i) (?:don't|do not) (?:offer|provide|support|allow|accept|issue|refund|cover|permit)\b",
    r"(?:stays?|remains?) (?:as it is|in place|suspended|non-?refundable|there|unchanged"
    r"|active|locked|frozen|on (?:the|your) (?:account|reservation|booking))",
    r"no (?:exceptions?|way (?:for me|to|i can))",
    r"has to come from|have to come from|must come from|need to (?:contact|get in touch|call)"
    r" (?:them|the|their|us directly)|(?:he|she|they)(?:'ll| will) need to get in touch",
    r"there(?:'s| is| was) (?:no|nothing) (?:second |duplicate |other |extra |additional )?"
    r"(?:charge|payment|fee|claim|dispute|refund)s? to (?:dispute|refund|cancel|withdraw"
    r"|reverse|claim|file)",
    r"(?:there's|there is|there was|there were) no (?:active )?coverage|\bexcluded\b",
    r"nothing to (?:dispute|refund|cancel|withdraw|reverse|claim|file)",
    r"(?:isn't|is not|aren't|are not) (?:linked|tied|attached) to your",
    r"(?:i|we) (?:won't|will not) (?:be )?(?:making|make|change|cancel|refund|process)",
    r"(?:window|period|deadline) (?:has|have) (?:closed|passed|expired|ended)",
    r"(?:is|are) (?:older|more) than \d+ days",
    r"(?:above|more than|over|exceeds?) (?:what|the (?:\w+ )?limit)",
    r"(?:a|the) (?:different|separate) (?:story|matter)|another (?:matter|story)",
    r"rather than (?:the |their |its |your )?full|not the full|instead of the full",
    r"the earliest (?:i|we|you) (?:can|could)",
    r"\bnever (?:be )?(?:waived|refunded|reversed|credited|changed|cancel|removed|allowed)",
    r"(?:charge|fee|decision|booking|reservation|order|cost) (?:still )?stands\b",
    r"(?:have|need) to leave (?:it|this|that|them) (?:untouched|as (?:it is|they are)|alone)",
    r"makes? (?:it|them|this) (?:non-?refundable|ineligible)",
    r"(?:reserved|only) for (?:delays|orders|bookings|members|customers|cases|claims) (?:of|over"
    r"|above|with|that|where|longer)",
    r"there(?:'s| is) (?:no|nothing) (?:\w+ ){0,3}(?:i|we) can (?:issue|add|offer|do|refund"
    r"|credit|apply|give)|nothing (?:i|we) can (?:issue|add|offer|refund|credit|apply|give)",
    r"(?:are|is) locked in\b|(?:stays?|remains?) (?:off|due|owed|outstanding|as (?:it|they)"
    r" (?:is|are)) until",
    r"(?:aren't|are not|isn't|is not) waived|no (?:\w+ )?(?:error|mistake) to (?:dispute|correct"
    r"|fix)",
    r"^\**what (?:i|we) can(?:'t|not)\b",
)
"""A refusal, however worded: an inability, an eligibility rule, a policy, a limit."""

REFUSAL_BLOCKS = compiled(
    r"(?:if|in case|whether|unless|once) (?:\w+ ){0,4}(?:can't|cannot|can not"
    r"|won't|isn't|aren't|unable)",
    r"(?:can't|cannot|couldn't) (?:wait|thank|stress|promise|tell you how|imagine|believe)",
    r"until you|without your (?:ok|okay|go-ahead|confirmation|approval)",
    r"(?:will not|won't) (?:make|do) (?:any|anything)",
    r"only (?:be )?\w+ once",
    r"can(?:'t|not) be (?:undone|reopened|reversed|reinstated|restored|changed)(?: later"
    r"| afterwards| once| after)",
    r"(?:phone|device|app|sim card|network|signal|calls?|handset|messages?|router|wi-fi)"
    r" (?:can't|cannot|couldn't|won't)",
    r"can't go wrong|won't take (?:long|more than)|won't be (?:charged|billed|a problem)"
    r"|no (?:extra |additional )?(?:charge|fee|cost|problem|worries)",
)
"""Sentences whose refusal pattern is a condition, an idiom or good news."""

CLOSING = compiled(
    r"(?<!or )anything else(?!(?: \w+){0,4} (?:noted|added)\b)(?!.*\bbesides\b)"
    r"|something else (?:i|we|you)|anything more (?:i|we) can"
    r"|anything further|anything more (?:you|to)|(?:any|some)thing more (?:for|that)",
    r"any (?:other|more|further) (?:questions?|concerns?|issues?|way|thing|matters?"
    r"|requests?|help|problems?)",
    r"(?:else|more) (?:that )?(?:i|we) can (?:do|help|assist|look|sort|take care)",
    r"can (?:i|we) help (?:you )?with anything|help (?:you )?with anything (?:else|more)",
    r"what else can (?:i|we)|(?:is|was) there more|need anything (?:else|more)",
    r"that's everything on my|(?:else|more) you need(?:ed)?",
    r"(?:is|was) there (?:\w+ ){0,2}(?:anything|something) (?:else|more|further)\b",
    r"(?:will|would) that be all|(?:is|was) that (?:all|everything)(?: for (?:today|now))?\?",
    r"(?:any|another) (?:other )?(?:\w+ ){0,3}(?:(?:or|and) \w+ )?(?:(?:i|we) can|(?:i|we) could"
    r"|you'd like me to|you would like me to) (?:\w+ )?(?:check|help|look|answer|do|sort)",
)
"""Asks whether there is anything else."""

FAREWELL = compiled(
    r"take (?:good )?care(?! of| not| to| that)",
    r"^enjoy\b|^(?:drive|travel|fly|get home|stay) safe(?:ly)?\b|safe (?:travels|trip|drive)",
    r"(?:i )?hope (?:\w+ ){0,5}(?:go|goes|went|works?|turns? out) (?:smoothly|well|great|fine)"
    r"|hope you (?:have|enjoy|feel|get)",
    r"have an? (?:\w+ ){0,4}(?:day|evening|afternoon|morning|weekend|night|one|trip|flight"
    r"|stay|week|holiday|vacation|time|visit|journey)\b",
    r"enjoy (?:the rest of |your |the )(?:\w+ ){0,2}(?:day|evening|afternoon|weekend|trip|stay"
    r"|flight|holiday|vacation|visit|meal|time)",
    r"enjoy (?:the |your )?(?:new|trip|stay|flight|meal|visit)|enjoy (?:\w+ ){0,2}!|safe travels",
    r"good-?bye|bye for now|^bye\b|\bbye!|talk soon|all the best|best of luck|good luck",
    r"feel better|get well|wish(?:ing)? you (?:a|all|the|well|smooth|safe|happy|good|great)",
    r"(?:glad|happy|pleased) (?:i|we) (?:could|was able to|were able to|got|managed|have)"
    r" (?:to )?(?:help|sort|get|fix|resolve|assist)",
    r"(?:glad|happy) (?:that |this |it |we )(?:\w+ )?(?:helped|worked|sorted|got sorted)",
    r"my pleasure|you're (?:very |most |so )?welcome(?! to)|you are (?:very |most )?welcome(?! to)",
    r"(?:don't|do not) hesitate to|feel free to (?:reach|contact|get in touch|come back|chat)",
    r"reach out (?:again )?(?:any ?time|whenever|if)|(?:any ?time|whenever) you need",
    r"thanks? (?:you )?for (?:banking|flying|shopping|choosing|being|staying|calling"
    r"|chatting)(?! us about)",
    r"until next time|(?<!i )(?<!let's )(?<!to )see you(?!r|'ve| have| are|'re| in the)",
    r"take it easy|safe flying|happy travels|cheers[,!]|bon app[eé]tit",
)
"""Says goodbye, with or without asking whether there is anything else."""

TRANSFER = compiled(
    r"transfer(?:ring)? (?:you|your (?:call|chat|case|request)|this (?:chat|call|conversation"
    r"|case))",
    r"connect(?:ing)? you (?:with|to)|put(?:ting)? you (?:through|in touch)",
    r"(?:hand|pass|escalat|refer)(?:ed|ing|e|es|s)? (?:you|this|it|that"
    r"|your \w+(?: \w+)?)(?: (?:over|on|along|off|up))? to",
    # a thing sent or routed ("send it to", "forward the refill to") goes to a team only below
    r"(?:forward|rout|send)(?:ed|ing|e|es|s)? you(?: (?:over|on|along|off|up))? to",
    r"(?:hand|pass)(?:ed|ing)? (?:over|on|along) (?:your|this)",
    r"escalat(?:e|ed|ing) (?:this|it|your)",
    r"(?:bring|brought|bringing) in (?:a|one of|our|someone)",
    r"(?:human|live) (?:agent|representative|rep|person|colleague|being)",
    r"(?:colleague|specialist|team member|member of our|supervisor|nurse|clinician|agent)"
    r" (?:\w+ ){0,4}(?:will|who'll|'ll) (?:join|take over|pick up|be with you|contact|call"
    r"|reach out|follow up|get back|take it)",
    r"(?:they'll|they will|who will|someone (?:from|on) \w+ (?:\w+ )?will) (?:join|take over"
    r"|pick up|be with you|carry on|continue)",
    r"(?:hand|pass|forward|send|mov|escalat|refer|rout|transferr?)(?:ing|ed|e|es|s)? (?:you|this"
    r"|it|your (?:case|chat|request|call|claim|report)|the (?:case|chat|report|claim))(?: \w+){0,2}"
    r" (?:over |through |along |on )?to (?:them|someone|(?:our|the|a|an|one of|my) (?:\w+ ){0,2}"
    r"(?:team|department|desk|specialists?|colleagues?|supervisor|manager|agents?|nurses?"
    r"|pharmacists?|adjusters?|clinicians?|representatives?|unit|group))",
    r"forward(?:ing|ed)? (?:your|this) (?:case|chat|request|claim|call)",
    r"hand(?:ing|ed)? (?:this|it|you|your \w+)(?: \w+)? over|\bhand-?off\b",
    r"connect(?:ing)? you\b|(?:be|being|get|getting) (?:connected|transferred|put through)"
    r" (?:to|with)|loop(?:ing)? in (?:a|one|our|my|someone)",
    r"(?:get|bring|have) (?:a|my|our|one of our) (?:\w+ )?(?:supervisor|manager|specialist"
    r"|colleague|agent|nurse|pharmacist|adjuster)s? (?:on the line|in|to|who)",
)
"""Hands the user to a person or another team."""

TRANSFER_BLOCKS = compiled(
    r"(?:can't|cannot|unable to|not able to|won't|no) (?:\w+ ){0,2}(?:transfer|connect|escalat"
    r"|hand|human|live agent)",
    r"would you like (?:me )?to|do you want (?:me )?to|shall i|should i|if you(?:'d| would) like",
    r"(?:ask|request) for a (?:human|person|supervisor|manager)",
    r"(?:moved|transfer(?:red)?) (?:\$|from|between)|transfer (?:of|limit)|(?:money|funds)",
)
"""Sentences that speak of a transfer without making one (refused, offered, of money)."""

ACKNOWLEDGEMENT = compiled(
    r"sorry|apolog|yikes|oh no|ouch|\bugh\b",
    r"(?:i'd|i would|anyone would) be (?:\w+ )?(?:upset|frustrated|worried|annoyed|angry|stressed"
    r"|nervous|anxious)",
    r"(?:is|that's|that is|sounds) (?:really |so |pretty )?rough",
    r"(?:i|we) (?:completely |totally |fully |really |absolutely |definitely |can |do )*"
    r"(?:understand|get (?:it|why|how|that)|see (?:why|how)|hear (?:you|how|that)|imagine"
    r"|appreciate (?:how|that|why|your (?:patience|understanding)))",
    r"i realis|i realiz|i know (?:how|this|that|it's|it is|what)",
    r"(?:that|this|it) (?:must|sounds|would be|is|has been|'s|can be)(?: \w+)? (?:really |so |very "
    r"|incredibly |quite |a |an |such a |truly )*(?:frustrating|stressful|annoying|upsetting"
    r"|scare|ordeal|shock|fright|worry|pain|blow|mess|letdown"
    r"|worrying|worry|scary|difficult|hard|inconvenient|disappointing|exhausting|tough|awful"
    r"|concerning|alarming|unsettling|overwhelming|no fun|long day|nightmare|pain|hassle"
    r"|headache|rough|a lot|feeling)",
    r"understandabl|frustrat|no worries|not a problem|no problem|(?:happy|glad|delighted|more"
    r" than happy) to\b",
    r"here (?:to|for) (?:help|you)|(?:i'd|i would) be (?:glad|happy|delighted)",
    r"thanks? (?:you )?(?:so much )?for (?:your understanding|hanging in|sticking with)",
    r"appreciate (?:your|you) (?:patience|understanding|bearing|waiting)",
    r"(?:don't|do not) worry|rest assured|you're not alone|i've got you",
    r"(?:totally|completely|perfectly|entirely) (?:fair|understandable|valid|reasonable)",
    r"(?:what|such) a (?:hassle|pain|nuisance|shame|headache|mess|nightmare)|that's (?:a shame"
    r"|rough|no fun|awful)",
    r"can't wait to",
    r"i feel (?:for )?you|feel better|must be (?:hard|tough|difficult|stressful)",
)
"""Shows care for the user or their situation."""

ACKNOWLEDGEMENT_BLOCKS = compiled(
    r"^sorry,? (?:could|can|would|what|i didn't|i missed|come again|say that|one more)",
)
"""An apology that only asks again ("Sorry, could you repeat that?"): no care shown."""

CONFIRMATION = compiled(
    r"shall (?:i|we)\b|should (?:i|we) (?:go|proceed|book|cancel|submit|make|process|lock|do"
    r"|place|file|send|freeze|apply|change|switch|start|open|update|move|set)",
    r"(?:would|do) you (?:still )?(?:like|want) me to|want me to|(?:would|do) you like me to",
    r"(?:can|may|could) (?:i|we) (?:go ahead|proceed|book|cancel|submit|process|lock|place"
    r"|file|freeze|make|apply|start|set|switch|change|update)",
    r"\bgo ahead\b|\bproceed\b|ready (?:for me )?to|the go-ahead|give me the (?:ok|okay|green)",
    r"^(?:does )?(?:everything|that|this|all (?:of )?(?:that|this)) (?:look|sound)s? (?:right|good"
    r"|ok|okay|correct)",
    r"is (?:that|this|everything|all of that) (?:\w+ )?(?:correct|right|ok|okay|accurate|what you"
    r" want|alright|all right|fine)",
    r"(?:does|do) (?:that|this|everything|these) (?:\w+ )?(?:sound|look|work)",
    r"are you sure|(?:is it|would it be|is that) (?:ok|okay|alright|all right|fine) (?:if|to|with)",
    r"(?:ok|okay|alright|all right) (?:to|if i|with (?:you|that|this))",
    r"(?:yes|no)\W+(?:or|/) ?(?:no|yes)|yes/no",
    r"would that work|does that work|works for you\?|sound good\?|sounds good\?",
    r"would (?:that|this|it) (?:be )?(?:help|helpful|work|okay|ok|alright|all right)\b",
    r"if (?:that|this) works\?|if (?:that|this)(?:'s| is) (?:ok|okay|alright|all right|fine)\?",
    r"lock it in\?|make the switch\?|book it\?",
    r"confirm (?:that's|that is|this is|it's|it is) (?:what you (?:want|need|meant)|right|correct"
    r"|ok|okay|fine)|confirm (?:that|this|it|everything|all of (?:that|this))(?: for me)?\?",
    r"good to (?:go|book|proceed|go ahead)\b.*\?|still want (?:me )?to (?:go ahead|proceed)",
    r"confirm (?:the|these|those) (?:details|changes?|above|steps)|confirm you(?:'re| are)"
    r" (?:happy|ok|okay|fine|good)",
)
"""Asks the user's go-ahead for an action, in a question ("Shall I cancel it?")."""

OFFER = compiled(
    r"(?:would|do) you (?:still )?(?:like|want) (?:to|it|us to) (?:go ahead|proceed|continue"
    r"|confirm|cancel|book|switch|start|change|keep|move|upgrade|file|submit|freeze|lock"
    r"|make|return|exchange|add|put|use|pay|apply|do|have|set|open|try)",
    r"would you like (?:that|this|it|one|those|these)(?: instead| then| booked| done)?\?",
)
"""Offers an action the user may want ("Would you like to cancel it?"): a go-ahead question
unless it names a slot of the user ("Would you like to add travel insurance?")."""

CONFIRM_STATEMENT = compiled(
    r"(?:as soon as|once|when|after) you (?:confirm|say|reply|give|approve|agree|okay|ok)",
    r"(?:until|before) you (?:confirm|approve|agree|say yes|give me the)",
    r"(?:reply|say|answer|type) (?:with )?[\"']?(?:yes|ok|okay|the word)\b",
    r"just say the word|give me the go-ahead|with your go-ahead|your (?:ok|okay|go-ahead|approval)",
    r"if (?:so|yes|that's (?:right|correct)|it (?:does|is)), (?:i'll|i will)",
    r"let me know if (?:you'd|you would|you want|you) (?:like )?(?:me to )?(?:go ahead|proceed)",
    r"(?:please )?confirm (?:and|so|that) (?:i|you(?:'d| would| want))",
    r"(?:please )?confirm (?:that )?you(?:'d| would) like to|(?:please )?confirm (?:that )?you"
    r" want to",
)
"""Asks the user's go-ahead in a statement ("As soon as you reply yes, I'll cancel it")."""

AGENT_ACTS = compiled(
    r"^\W*(?:ok|okay|alright|all right)(?: to| if i)\b|shall (?:i|we)\b|should (?:i|we)\b"
    r"|(?:would|do) you (?:like|want) me to|want me to|(?:can|may) (?:i|we) (?:go ahead|proceed)",
)
"""A go-ahead question about what the agent will do: it asks the user for no device step."""

CHOICE = compiled(
    r"which (?:one|ones|of|would|do|works|is|are|did|should)\b|either (?:one|of)"
    r"|(?:the|one of the) (?:two|three|four|several)\b|the right one|is (?:this|it|that) the\b",
    r"\bor\b (?:the|a|an|your|my|one)\b",
)
"""A question that asks the user to choose among records the agent found."""

PICK = compiled(
    r"(?:that|this|it) must be the|(?:do you mean|you mean|are you referring to|is it) the\b",
    r"which (?:one|ones|of (?:the|these|those|them|your|its)|would you prefer|works best)\b"
    r"|the right one|^is (?:this|it|that) the\b|: is (?:this|it|that) the\b",
)
"""A choice that names no record ("Which one is missing?"): the text's record says which."""

REQUEST = compiled(
    r"please\b(?! (?:note|be aware|allow|expect|hold|wait|bear|stay))",
    r"if you(?:'d| would) rather|if (?:that's|it's) easier|if you prefer|alternatively"
    r"|(?:work|works|will do|is fine|are fine) (?:too|as well|instead)",
    # a proposal to do the user's task ("Let's add those bags.") asks the user nothing
    r"(?:let's|let us)(?! (?:add|cancel|book|change|fix|sort|do|go|move|switch|update|upgrade"
    r"|refund|return|take care|get (?:this|that|those|these|it|you)\b))",
    r"please (?:provide|share|tell|give|send|confirm|let me know|enter|type|spell|state"
    r"|specify|list|describe|read|include|reply|check|double-check|verify|note|add|pick"
    r"|choose|select)",
    r"let me know|tell me|give me|send me|read me|share (?:with me|your|the)|walk me",
    r"(?:i|we)(?:'ll| will)? (?:just |also |still |first |only )?need (?:your|the|to (?:know"
    r"|have|get|see|confirm|verify)|a few|two|one|some|either|both|a couple)",
    r"(?:i|we)(?:'d| would) need|i'll need|i need|all i need|what i need|may i have|can i have"
    r"|could i (?:have|get)|can i get|(?:may|can|could) i (?:ask|grab|take|get)",
    r"(?:can|could|would|will) you (?:please |kindly |also |just )?(?:tell|give|provide|share"
    r"|confirm|send|read|spell|let|describe|list|check|double-check|verify|pick|choose|select"
    r"|say|type|enter)",
    r"(?:whichever|either) (?:is|works|one)|(?:i can|we can) (?:verify|identify|look you up|find"
    r" you|pull up)",
    r"(?:one|either|both) of the following|please$|, please\b",
)
"""Asks the user for something in a statement ("Please share", "I'll need your email")."""

INFO_REQUEST = compiled(
    r"(?:provide|share|send|give|tell|enter|type|spell|state|specify|read) (?:me |us )?(?:your|the"
    r"|a|an|with|me|us)\b",
    r"(?:i|we)(?:'ll| will)? (?:just |also |still )?need (?:your|the|a|an)\b",
)
"""A statement that asks for a piece of information (a question nobody could place when it
names none the user holds)."""
