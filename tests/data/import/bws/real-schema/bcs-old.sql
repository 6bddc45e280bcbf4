-- Schema of an older real Bridgemate BWS file (Bridgemate Control Software, session of 2005-05-09;
-- Access 97, Jet 3; no Session table, no Section.ScoringType): `mdb-schema FILE` (mdbtools 1.0.0),
-- table and column definitions only, no data.
-- From github.com/jarronshih/bridgemate-ui, path doc/12tables1section.bws
-- (commit e68317f501aa45baa6a1ebb871ed7aa226ba6763); the file itself is not kept here (no licence).
-- tools/make_bws_fixtures.py builds old.bws from these definitions, and tests/bws_schema.rs checks it.

CREATE TABLE [Clients]
 (
	[ID]			Long Integer, 
	[Computer]			Text (255)
);

CREATE TABLE [Section]
 (
	[ID]			Integer, 
	[Letter]			Text (2), 
	[Tables]			Integer, 
	[MissingPair]			Integer, 
	[EWMoveBeforePlay]			Integer
);

CREATE TABLE [Tables]
 (
	[Section]			Integer, 
	[Table]			Integer, 
	[ComputerID]			Integer, 
	[Status]			Integer, 
	[LogOnOff]			Integer, 
	[CurrentRound]			Integer, 
	[CurrentBoard]			Integer, 
	[UpdateFromRound]			Integer, 
	[Group]			Integer
);

CREATE TABLE [RoundData]
 (
	[Section]			Integer, 
	[Table]			Integer, 
	[Round]			Integer, 
	[NSPair]			Integer, 
	[EWPair]			Integer, 
	[LowBoard]			Integer, 
	[HighBoard]			Integer, 
	[CustomBoards]			Text (255)
);

CREATE TABLE [ReceivedData]
 (
	[ID]			Long Integer, 
	[Section]			Integer, 
	[Table]			Integer, 
	[Round]			Integer, 
	[Board]			Integer, 
	[PairNS]			Integer, 
	[PairEW]			Integer, 
	[Declarer]			Integer, 
	[NS/EW]			Text (2), 
	[Contract]			Text (10), 
	[Result]			Text (10), 
	[LeadCard]			Text (10), 
	[Remarks]			Text (255), 
	[DateLog]			DateTime, 
	[TimeLog]			DateTime, 
	[Processed]			Boolean NOT NULL, 
	[Processed1]			Boolean NOT NULL, 
	[Processed2]			Boolean NOT NULL, 
	[Processed3]			Boolean NOT NULL, 
	[Processed4]			Boolean NOT NULL, 
	[Erased]			Boolean NOT NULL, 
	[ExternalUpdate]			Boolean NOT NULL
);

CREATE TABLE [IntermediateData]
 (
	[ID]			Long Integer, 
	[Section]			Integer, 
	[Table]			Integer, 
	[Round]			Integer, 
	[Board]			Integer, 
	[PairNS]			Integer, 
	[PairEW]			Integer, 
	[Declarer]			Integer, 
	[NS/EW]			Text (2), 
	[Contract]			Text (10), 
	[Result]			Text (10), 
	[LeadCard]			Text (10), 
	[Remarks]			Text (255), 
	[DateLog]			DateTime, 
	[TimeLog]			DateTime, 
	[Processed]			Boolean NOT NULL, 
	[Processed1]			Boolean NOT NULL, 
	[Processed2]			Boolean NOT NULL, 
	[Processed3]			Boolean NOT NULL, 
	[Processed4]			Boolean NOT NULL, 
	[Erased]			Boolean NOT NULL
);

CREATE TABLE [BiddingData]
 (
	[ID]			Long Integer, 
	[Section]			Integer, 
	[Table]			Integer, 
	[Round]			Integer, 
	[Board]			Integer, 
	[Counter]			Integer, 
	[Direction]			Text (2), 
	[Bid]			Text (10), 
	[DateLog]			DateTime, 
	[TimeLog]			DateTime, 
	[Erased]			Boolean NOT NULL
);

CREATE TABLE [PlayData]
 (
	[ID]			Long Integer, 
	[Section]			Integer, 
	[Table]			Integer, 
	[Round]			Integer, 
	[Board]			Integer, 
	[Counter]			Integer, 
	[Direction]			Text (2), 
	[Card]			Text (10), 
	[DateLog]			DateTime, 
	[TimeLog]			DateTime, 
	[Erased]			Boolean NOT NULL
);

CREATE TABLE [PlayerNumbers]
 (
	[Section]			Integer, 
	[Table]			Integer, 
	[Direction]			Text (2), 
	[Number]			Text (16), 
	[Name]			Text (18), 
	[Updated]			Boolean NOT NULL, 
	[Processed]			Boolean NOT NULL, 
	[TimeLog]			DateTime
);

CREATE TABLE [Settings]
 (
	[ShowResults]			Boolean NOT NULL, 
	[ShowOwnResult]			Boolean NOT NULL, 
	[RepeatResults]			Boolean NOT NULL, 
	[MaximumResults]			Integer, 
	[ShowPercentage]			Boolean NOT NULL, 
	[GroupSections]			Boolean NOT NULL, 
	[ScorePoints]			Integer, 
	[EnterResultsMethod]			Integer, 
	[ShowPairNumbers]			Boolean NOT NULL, 
	[IntermediateResults]			Boolean NOT NULL, 
	[AutopoweroffTime]			Integer, 
	[VerificationTime]			Integer, 
	[ShowContract]			Integer, 
	[LeadCard]			Boolean NOT NULL, 
	[MemberNumbers]			Boolean NOT NULL, 
	[MemberNumbersNoBlankEntry]			Boolean NOT NULL, 
	[BoardOrderVerification]			Boolean NOT NULL, 
	[HandRecordValidation]			Boolean NOT NULL, 
	[Section]			Integer
);

CREATE TABLE [PlayerNames]
 (
	[ID]			Long Integer, 
	[Name]			Text (18), 
	[strID]			Text (18)
);

CREATE TABLE [HandRecord]
 (
	[Section]			Integer, 
	[Board]			Integer, 
	[NorthSpades]			Text (13), 
	[NorthHearts]			Text (13), 
	[NorthDiamonds]			Text (13), 
	[NorthClubs]			Text (13), 
	[EastSpades]			Text (13), 
	[EastHearts]			Text (13), 
	[EastDiamonds]			Text (13), 
	[EastClubs]			Text (13), 
	[SouthSpades]			Text (13), 
	[SouthHearts]			Text (13), 
	[SouthDiamonds]			Text (13), 
	[SouthClubs]			Text (13), 
	[WestSpades]			Text (13), 
	[WestHearts]			Text (13), 
	[WestDiamonds]			Text (13), 
	[WestClubs]			Text (14)
);

CREATE TABLE [HandEvaluation]
 (
	[Section]			Integer, 
	[Board]			Integer, 
	[NorthSpades]			Integer, 
	[NorthHearts]			Integer, 
	[NorthDiamonds]			Integer, 
	[NorthClubs]			Integer, 
	[NorthNotrump]			Integer, 
	[EastSpades]			Integer, 
	[EastHearts]			Integer, 
	[EastDiamonds]			Integer, 
	[EastClubs]			Integer, 
	[EastNotrump]			Integer, 
	[SouthSpades]			Integer, 
	[SouthHearts]			Integer, 
	[SouthDiamonds]			Integer, 
	[SouthClubs]			Integer, 
	[SouthNotrump]			Integer, 
	[WestSpades]			Integer, 
	[WestHearts]			Integer, 
	[WestDiamonds]			Integer, 
	[WestClubs]			Integer, 
	[WestNotrump]			Integer
);


